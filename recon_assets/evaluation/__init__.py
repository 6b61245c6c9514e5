"""Evaluation of the reliability method on labelled cases (issue 4): the four rates and the weight ablation."""
