import lightning as L

trainer = L.Trainer(max_epochs=3, strategy="auto", precision="bf16-mixed")
trainer.fit(model, datamodule=dm)
