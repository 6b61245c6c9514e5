"""Verdicts over each dataset's evidence set (DOMAIN.md "Verdicts over an evidence set"): the critic's rules
(`critic`), evidence expansion from OpenAlex (`expansion`), the table rows (`dataset_judgements`), the
dataset_verdicts asset and its check."""
