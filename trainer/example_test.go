package trainer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/songc/songc/runlog"
	"github.com/songc/songc/trainer"
	"github.com/songc/songc/trainer/data"
)

// Example trains a small graph on 2,000 rows of the embedded Letter data
// with the fast recipe, and reads back what the model file records.
func Example() {
	train, test, err := data.Letter()
	if err != nil {
		log.Fatal(err)
	}
	rows := make([]int, 2000)
	for i := range rows {
		rows[i] = i
	}
	task, err := trainer.NewTask(train.Subset(rows), test)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := trainer.PresetConfig("fast")
	if err != nil {
		log.Fatal(err)
	}
	cfg.Nodes, cfg.Steps, cfg.Epochs = 16, 8, 3
	run, err := trainer.NewRun(cfg, task)
	if err != nil {
		log.Fatal(err)
	}
	if err := run.Train(context.Background()); err != nil {
		log.Fatal(err)
	}
	m, err := run.Model("example")
	if err != nil {
		log.Fatal(err)
	}
	meta, err := runlog.ReadMetadata(m.Training)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg)
	fmt.Printf("%d nodes, %d classes; %d training and %d validation rows; best of %d epochs kept\n",
		m.Nodes, m.Classes, meta.TrainRows, meta.ValRows, meta.Epochs)
	// Output:
	// 16 nodes, 8 steps; f32, batch 64, lr 0.03, 3 epochs, standardized inputs, cosine lr schedule, annealed to temperature 0.4 over the last 20% of epochs, epoch chosen by the hard walk
	// 16 nodes, 26 classes; 1800 training and 200 validation rows; best of 3 epochs kept
}
