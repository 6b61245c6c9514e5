"""One owner for the judge verdicts and the coherence scale (`judgement.verdict_scale`): every judge, the recorded
disputes and the labels use its values, and no other module of the judging and scoring packages spells a verdict."""

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from recon_assets.judgement import verdict_scale
from recon_assets.judgement.cues import Cue, CueKind
from recon_assets.judgement.disputes import DISPUTE_COHERENCE
from recon_assets.judgement.llm_prompt import SYSTEM_PROMPT, PairAnswer
from recon_assets.judgement.offline_judge import judge_pair
from recon_assets.judgement.steward import VERDICT_COHERENCE
from recon_assets.shared.sql_files import PACKAGE_DIR

POINTS = [(verdict, coherence) for verdict, coherence, _ in verdict_scale.SCALE]
# The modules that own another vocabulary spelled with some of the same words: the edge labels (SUPERSEDED,
# UNVERIFIED) and the dataset verdicts (CONTRADICTED).
OTHER_OWNERS = {"reliability/labels.py", "verdicts/critic.py"}


def test_the_scale_is_domain_md_s():
    assert POINTS == [
        ("SUPPORTED", 1.0), ("SUPPORTED", 0.7), ("CONTRADICTED", 0.5), ("CONTRADICTED", 0.1), ("SUPERSEDED", 0.3), ("UNVERIFIED", 0.5),
    ]
    assert verdict_scale.VERDICTS == ("SUPPORTED", "CONTRADICTED", "SUPERSEDED", "UNVERIFIED")
    assert verdict_scale.STANCES == ("SUPPORTED", "CONTRADICTED", "SUPERSEDED")
    assert verdict_scale.OBJECTIONS == ("CONTRADICTED", "SUPERSEDED")


def test_the_llm_prompt_lists_the_scale_and_its_answers_keep_to_it():
    rule = SYSTEM_PROMPT.split("3. Verdicts and coherence values (use exactly these pairs):\n")[1].split("\n4. ")[0]
    assert rule.splitlines() == [f"   {verdict} {coherence:.1f}: {meaning}." for verdict, coherence, meaning in verdict_scale.SCALE]
    for verdict, coherence in POINTS:
        assert PairAnswer(index=0, verdict=verdict, coherence=coherence, rationale="why").coherence == coherence


@pytest.mark.parametrize(
    ("verdict", "coherence"),
    [("SUPERSEDED", 0.1), ("SUPPORTED", 0.5), ("UNVERIFIED", 1.0), ("CONTRADICTED", 0.3), ("REFUTED", 0.1), ("supported", 1.0)],
)
def test_an_llm_answer_off_the_scale_is_refused(verdict, coherence):
    with pytest.raises(ValidationError):
        PairAnswer(index=0, verdict=verdict, coherence=coherence, rationale="why")


@pytest.mark.parametrize("kind", [*CueKind, None])
def test_every_offline_verdict_is_a_point_of_the_scale(kind):
    cue = Cue(kind, "the cue", "The sentence with the cue.", "cue-1") if kind is not None else None
    judgement = judge_pair(0.9, cue)
    assert (judgement.verdict, judgement.coherence) in POINTS
    assert (judge_pair(0.1, cue).verdict, judge_pair(0.1, cue).coherence) == (verdict_scale.UNVERIFIED, verdict_scale.NEUTRAL_COHERENCE)


def test_steward_spans_and_dispute_values_are_on_the_scale():
    assert set(VERDICT_COHERENCE) == set(verdict_scale.STANCES)
    for verdict, (low, high) in VERDICT_COHERENCE.items():
        assert all(low <= value <= high for value in verdict_scale.COHERENCE_BY_VERDICT[verdict])
    assert set(DISPUTE_COHERENCE.values()) <= {coherence for _, coherence in POINTS}


def verdicts_spelled(path: Path) -> list[str]:
    """'line: VERDICT' for each string constant (docstrings aside) of the module at `path` that is a judge verdict."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        f"{node.lineno}: {node.value}" for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in verdict_scale.VERDICTS and id(node) not in docstrings
    ]


def test_no_other_module_spells_a_verdict():
    spelled = {
        str(path.relative_to(PACKAGE_DIR)): found
        for package in ("judgement", "reliability", "verdicts", "evaluation")
        for path in sorted((PACKAGE_DIR / package).glob("*.py"))
        if str(path.relative_to(PACKAGE_DIR)) not in {"judgement/verdict_scale.py", *OTHER_OWNERS}
        and (found := verdicts_spelled(path))
    }
    assert spelled == {}


def test_a_spelled_verdict_is_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""SUPPORTED in a docstring is prose."""\nSTATUS = "UNVERIFIED"\n\ndef f(v):\n    """CONTRADICTED"""\n    return v == "SUPERSEDED"\n')
    assert verdicts_spelled(module) == ["2: UNVERIFIED", "6: SUPERSEDED"]
