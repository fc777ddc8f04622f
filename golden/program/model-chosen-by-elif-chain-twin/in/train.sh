python3 main.py --model_type=R2U_Net
