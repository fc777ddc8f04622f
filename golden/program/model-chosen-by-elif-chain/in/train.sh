for a in U_Net AttU_Net; do
	python3 main.py --model_type=$a
done
