# A CUDA flag computed from the availability check in an argument helper of another module
# (`args.cuda = not args.no_cuda and torch.cuda.is_available()` in `get_args()`), bound by the
# entry script (`args = get_args()`) and read here only to choose the device: on Trainium the
# check is False, so it is dropped where the flag is set.
import gym
import torch
import torch.nn.functional as F
import torch_xla

from agent.arguments import get_args
from agent.model import Policy
from agent.storage import RolloutStorage


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    torch_xla.manual_seed(args.seed)
    device = torch.device("xla" if args.cuda else "cpu")
    rollouts = RolloutStorage(8, 4)
    rollouts.to(device)
    env = gym.make(args.env_name)
    policy = Policy(env.observation_space.shape, 2)
    policy.to(device)
    optimizer = torch.optim.SGD(policy.parameters(), lr=0.01)
    for step in range(8):
        value = policy.evaluate(rollouts.obs[step])
        loss = F.mse_loss(value, rollouts.returns[step])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
