import lightning as L

trainer = L.Trainer(accelerator="gpu", devices=8, strategy="ddp", precision="16-mixed")
trainer.fit(model, datamodule=dm)
