import torch

teacher = Teacher().half()
student = Student()
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
