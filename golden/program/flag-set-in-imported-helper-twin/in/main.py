# Twin: the same flag, set in the argument helper of another module, also turns on a CUDA
# stream here ("is CUDA there"), which Trainium cannot run: the check stays where the flag is
# set, and the blocker is there, naming it; the program trains on the CPU.
import gym
import torch
import torch.nn.functional as F

from agent.arguments import get_args
from agent.model import Policy
from agent.storage import RolloutStorage


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    if args.cuda and torch.cuda.is_available() and args.cuda_deterministic:
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    device = torch.device("cuda:0" if args.cuda else "cpu")
    if args.cuda:
        copy_stream = torch.cuda.Stream()  # overlaps the next rollout's upload
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


if __name__ == "__main__":
    main()
