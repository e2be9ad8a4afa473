package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Metadata is the "training" object of a model file written by songc
// train: the recipe (the Config in canonical form, its Epochs being the
// epochs trained), what ran it and what it chose. Refine, when the hard walk
// was refined, is the report songc refine adds.
type Metadata struct {
	Songc string `json:"songc"` // songc's version
	Config
	// Temperature is the temperature of the saved epoch when it was
	// annealed, folded into the parameters (docs/model.md).
	Temperature  float64 `json:"temperature,omitempty"`
	Kernel       string  `json:"kernel"` // the matrix kernel that ran, e.g. "avx2-f32"
	TrainRows    int     `json:"train_rows"`
	ValRows      int     `json:"val_rows"`
	DataSHA256   string  `json:"data_sha256"` // fingerprint of the training rows and labels
	BestEpoch    int     `json:"best_epoch"`
	ValAccuracy  float64 `json:"val_accuracy,omitempty"`  // the soft model's, of the best epoch
	TestAccuracy float64 `json:"test_accuracy,omitempty"` // reported only, never used to choose
	Search       *Search `json:"search,omitempty"`
	Refine       *Refine `json:"refine,omitempty"`
}

// Constant returns the majority check when it replaced the walk by a
// constant model, and nil otherwise.
func (m Metadata) Constant() *MajorityCheck {
	if m.Refine == nil || m.Refine.Majority == nil || !m.Refine.Majority.Constant {
		return nil
	}
	return m.Refine.Majority
}

// Tree returns the tree check's outcome when its tree replaced the walk
// and no regression replaced the tree (the majority check's constant may
// have since), else nil.
func (m Metadata) Tree() *TreeCheck {
	if m.Logistic() != nil {
		return nil
	}
	return m.TreeKept()
}

// TreeKept returns the tree check's outcome when its tree replaced the
// walk, whatever replaced the tree since, else nil.
func (m Metadata) TreeKept() *TreeCheck {
	if m.Refine == nil || m.Refine.Tree == nil || !m.Refine.Tree.Kept {
		return nil
	}
	return m.Refine.Tree
}

// Logistic returns the logistic check's outcome when its regression is
// the model: put in the walk's or tree's place by the logistic check, or
// in the constant's by the majority check (Fallback), else nil.
func (m Metadata) Logistic() *LogisticCheck {
	if m.Refine == nil || m.Refine.Logistic == nil || !(m.Refine.Logistic.Kept || m.Fallback() != nil) {
		return nil
	}
	return m.Refine.Logistic
}

// Fallback returns the majority check when it put the logistic check's
// regression in place of the constant, after the walk lost to the
// constant, else nil.
func (m Metadata) Fallback() *MajorityCheck {
	if m.Refine == nil || m.Refine.Majority == nil || m.Refine.Majority.Regression == nil || !m.Refine.Majority.Regression.Kept {
		return nil
	}
	if m.Refine.Logistic != nil && m.Refine.Logistic.Kept {
		return nil // the regression was already the model
	}
	return m.Refine.Majority
}

// ErrNoMetadata is returned by ReadMetadata for a model without training metadata.
var ErrNoMetadata = errors.New("the model has no training metadata")

// ReadMetadata decodes the "training" object of a model file.
func ReadMetadata(raw json.RawMessage) (Metadata, error) {
	var m Metadata
	if len(raw) == 0 || string(raw) == "null" {
		return m, ErrNoMetadata
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("training metadata: %v", err)
	}
	return m, nil
}

// Refine is the "refine" object songc refine adds to a model's training
// metadata.
type Refine struct {
	Passes   int          `json:"passes"` // the most passes allowed
	Ridge    float64      `json:"ridge"`
	Selected int          `json:"selected_pass"`
	Log      []RefinePass `json:"log"`
	// Majority, when refine ran its majority check, is its outcome.
	Majority *MajorityCheck `json:"majority_check,omitempty"`
	// Tree, when refine ran its tree check, is its outcome.
	Tree *TreeCheck `json:"tree_check,omitempty"`
	// Logistic, when refine ran its logistic check, is its outcome.
	Logistic *LogisticCheck `json:"logistic_check,omitempty"`
}

// LogisticCheck is the outcome of refine's logistic check: a multinomial
// logistic regression on all the columns, fitted to the rows refitted to,
// against the model the tree check left (the walk, or its tree) on the
// validation rows.
type LogisticCheck struct {
	// Score is the regression's validation score (accuracy, or balanced
	// accuracy for a model selected by it); RivalScore is that of Rival,
	// "walk" or "tree".
	Score      float64 `json:"score"`
	Rival      string  `json:"rival"`
	RivalScore float64 `json:"rival_score"`
	// RivalOnly counts the validation rows the rival gets right and the
	// regression wrong, RegressionOnly the other way round; PValue and
	// Undecided are the sign test of the two, as MajorityCheck's. They
	// are set for a model selected by accuracy, and zero for one selected
	// by balanced accuracy, which the scores alone decide.
	RivalOnly      int     `json:"rival_only,omitempty"`
	RegressionOnly int     `json:"regression_only,omitempty"`
	PValue         float64 `json:"p_value,omitempty"`
	Undecided      bool    `json:"undecided,omitempty"`
	// Kept is set when the rival did not beat the regression by the sign
	// test (for balanced accuracy: when the regression scored higher):
	// the model is then the regression fitted again on the training and
	// validation rows together, in place of the rival. The rival was
	// chosen among many candidates on the validation rows and the
	// regression fitted once, so only a lead the test finds counts.
	Kept bool `json:"kept,omitempty"`
}

// TreeCheck is the outcome of refine's tree check: a decision tree on
// single columns, grown on the rows refitted to, against the refined walk
// on the validation rows.
type TreeCheck struct {
	// Scores holds the tree's validation score (accuracy, or balanced
	// accuracy for a model selected by it) at each leaf count tried.
	Scores []TreeScore `json:"scores"`
	// Leaves and Score are the best of Scores (the fewer leaves on
	// ties); WalkScore is the walk's.
	Leaves    int     `json:"leaves"`
	Score     float64 `json:"score"`
	WalkScore float64 `json:"walk_score"`
	// Kept is set when the tree scored above the walk: the model is then
	// the tree of Leaves leaves grown again on the training and
	// validation rows together, in place of the walk.
	Kept bool `json:"kept,omitempty"`
}

// TreeScore is a tree's validation score at a leaf count.
type TreeScore struct {
	Leaves int     `json:"leaves"`
	Score  float64 `json:"score"`
}

// MajorityCheck is the outcome of refine's majority check: the selected
// walk (or the tree check's tree) and, where the logistic check fitted
// one, its regression, against always predicting Class, the most
// frequent class of the rows refitted to, on the validation rows.
type MajorityCheck struct {
	Class string `json:"class"`
	// WalkOnly counts the validation rows the walk gets right and the
	// constant wrong; ConstantOnly those the constant gets right and the
	// walk wrong. The rows both get right, or both wrong, say nothing of
	// which is better.
	WalkOnly     int `json:"walk_only"`
	ConstantOnly int `json:"constant_only"`
	// PValue is the one-sided exact sign test's: the chance of WalkOnly or
	// more among WalkOnly+ConstantOnly fair coin flips, that is of the walk
	// doing this well if it were no better than the constant.
	PValue float64 `json:"p_value"`
	// Undecided is set when fewer rows tell the two apart than the test
	// needs to reach its level at all: the walk was then kept if it was
	// right on more of them than the constant.
	//
	// Where the logistic check's regression replaced the walk, these
	// fields still give the walk's test, but it is the regression that
	// the check judges (Regression).
	Undecided bool `json:"undecided,omitempty"`
	// Constant is set when the model judged lost: the model then predicts
	// Class for every row (one node whose two branches lead to Class's
	// leaf), in place of the walk or regression, and its soft model the
	// classes' shares of the rows refitted to.
	Constant bool `json:"constant,omitempty"`
	// Regression is the logistic check's regression against the same
	// constant on the same rows, where it replaced the walk, or where
	// the walk lost and the check had fitted one.
	Regression *MajorityRegression `json:"regression,omitempty"`
}

// MajorityRegression is the logistic check's regression, fitted to the
// rows refitted to, against the majority check's constant on the
// validation rows: in the walk's place where it replaced the walk, or
// after the check found the walk no better than the constant.
type MajorityRegression struct {
	// RegressionOnly counts the validation rows the regression gets right
	// and the constant wrong; ConstantOnly the other way round.
	RegressionOnly int `json:"regression_only"`
	ConstantOnly   int `json:"constant_only"`
	// Kept is set when RegressionOnly is above ConstantOnly: the model is
	// then the regression fitted again on the training and validation rows
	// together, not the constant. The regression was fitted once,
	// not chosen among candidates on the validation rows as the walk was,
	// so its lead there needs no test.
	Kept bool `json:"kept,omitempty"`
}

// RefinePass is one line of the refine report. Accuracies are the hard
// walk's; pass 0 is the model as given.
type RefinePass struct {
	Pass     int     `json:"pass"`
	TrainAcc float64 `json:"hard_train_accuracy"`         // on the rows refitted to
	ValAcc   float64 `json:"hard_val_accuracy,omitempty"` // the model's validation rows
	// ValBalanced is the balanced accuracy on the validation rows, of a
	// model selected by it (--select balanced), which passes are chosen by.
	ValBalanced float64 `json:"hard_val_balanced_accuracy,omitempty"`
	// ValForced is the share of the validation rows whose walk ends in a
	// forced exit.
	ValForced float64 `json:"val_forced_exits,omitempty"`
	TestAcc   float64 `json:"hard_test_accuracy,omitempty"` // reported only, never used
	Filters   int     `json:"filters_changed,omitempty"`    // nodes whose filter was replaced
	Routes    int     `json:"routes_changed,omitempty"`     // argmax children and exits changed
	Grown     int     `json:"nodes_inserted,omitempty"`     // unused nodes put into the walk
	Best      bool    `json:"selected,omitempty"`           // the pass refine returns
	Seconds   float64 `json:"-"`                            // wall time, for progress only: model bytes stay deterministic
}

// Search is the "search" object of a model trained by songc's default
// recipe: every candidate tried, how far it trained and how it scored on
// the validation rows, and which one was kept. Wall times are in the log
// and the progress lines only, so that the model's bytes depend on the
// data, flags and seed alone.
type Search struct {
	// By is what candidates were ranked by, on the validation rows:
	// "hard" (the hard walk's accuracy), "balanced" (its mean accuracy
	// over the classes) or "soft" (the soft model's accuracy): the
	// recipe's Select.
	By         string      `json:"by"`
	Rungs      []int       `json:"rungs"` // epochs at which the candidates were cut
	Candidates []Candidate `json:"candidates"`
	Chosen     int         `json:"chosen"` // index into Candidates
	// Budget is the time budget in seconds; Cut says whether it stopped
	// the search before its plan was done (the model then depends on the
	// machine's speed too).
	Budget float64 `json:"budget_seconds"`
	Cut    bool    `json:"budget_cut,omitempty"`
	// Pilot, when set, is a first pass of the search whose validation
	// rows were too few to measure its best score with the standard error
	// the search aimed at; the candidates above are the second pass's, on
	// a larger validation share.
	Pilot *Pilot `json:"pilot,omitempty"`
	// NoTimeAgain says that the validation rows measured the best
	// finalist's score too roughly, so that the search would have run
	// again on more of them, but the first pass had spent more than half
	// of the budget.
	NoTimeAgain bool `json:"no_time_to_search_again,omitempty"`
}

// Pilot is the first pass of a search that ran again on more validation
// rows.
type Pilot struct {
	Val     float64 `json:"val"`        // its validation share
	ValRows int     `json:"val_rows"`   // and rows
	Best    float64 `json:"best_score"` // the best finalist's validation score
	Seconds float64 `json:"-"`          // its wall time, which the budget counts
}

// Candidate is one recipe the search tried.
type Candidate struct {
	Nodes       int     `json:"nodes"`
	Steps       int     `json:"steps"`
	LR          float64 `json:"lr"`
	WeightDecay float64 `json:"weight_decay,omitempty"`
	Epochs      int     `json:"epochs"`    // epochs trained
	Score       float64 `json:"val_score"` // best validation score over those epochs
	Seconds     float64 `json:"-"`         // wall time, for progress and the log only
}
