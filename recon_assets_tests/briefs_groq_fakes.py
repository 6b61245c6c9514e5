"""A stand-in for Groq answering the research briefs' prompts (`briefs.planner.planner_messages`,
`briefs.synthesis.synthesizer_messages`) at the HTTP transport, under the real `groq` SDK: `groq_fakes.FakeGroq` serves
Groq's recorded envelope and headers (fixtures/groq, PROVENANCE.md); the answers inside are built here from the
prompt as sent. It is not a language model: the tests and benchmarks/briefs_online.py use it to check the plumbing
and count requests and tokens, never to measure a brief.

`BriefsModel` answers honestly: the planner with three sub-questions naming the fenced question's first words, the
synthesizer with a Key Finding per HIGH or MEDIUM paper of the prompt and an Outlook naming the LOW ones. Given
`obey` (a function of the fenced data), it answers what that returns instead when it returns something: the stand-in
for a model that obeys an instruction planted in the data. Usage: prompt tokens about 4 bytes of the messages a
token (Llama 3 on English, as FakeGroq), completion tokens about 4 characters of the answer a token.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
import respx

from recon_assets.briefs.planner import PLANNER_SYSTEM
from recon_assets.briefs.synthesis import SYNTHESIZER_SYSTEM
from recon_assets_tests.groq_fakes import COMPLETIONS, FakeGroq, request_json

_FENCE = re.compile(r"<<<DATA ([\w-]+)>>>\n(.*?)\n<<<END DATA \1>>>", re.DOTALL)
_PAPER = re.compile(r"^PAPER (\[[^\]]+\]) trust (HIGH|MEDIUM|LOW|UNASSESSED)$", re.MULTILINE)
PLANNER, SYNTHESIZER = "planner", "synthesizer"
# Words of the question the honest planner names in each sub-question.
TOPIC_WORDS = 12


def prompt_kind(request: httpx.Request) -> str:
    """'planner' or 'synthesizer', by the system message sent."""
    system = request_json(request)["messages"][0]["content"]
    if system == PLANNER_SYSTEM:
        return PLANNER
    if system == SYNTHESIZER_SYSTEM:
        return SYNTHESIZER
    raise AssertionError(f"not a briefs prompt: {system[:60]!r}")


def fenced_data(request: httpx.Request) -> dict[str, str]:
    """{fence label: its body} of the user message as sent ('question', 'session', 'datasets', 'paper-0', ...)."""
    return dict(_FENCE.findall(request_json(request)["messages"][1]["content"]))


def prompt_papers(request: httpx.Request) -> list[tuple[str, str]]:
    """(citation tag, trust level) of each PAPER line of a synthesizer prompt, in order."""
    return _PAPER.findall(request_json(request)["messages"][1]["content"])


def honest_plan(question: str) -> dict:
    """Three sub-questions of distinct kinds, each naming the question's first TOPIC_WORDS words."""
    topic = " ".join(question.rstrip(" ?.!").split()[:TOPIC_WORDS])
    return {"subquestions": [
        {"kind": "foundational", "text": f"Reference work on {topic}"},
        {"kind": "recent", "text": f"Recent evaluations: {topic}"},
        {"kind": "contested", "text": f"Disputed results on {topic}"},
    ]}


def honest_brief(papers: list[tuple[str, str]]) -> dict:
    """A Key Finding per HIGH or MEDIUM paper (at most 5, at its trust as confidence), an Outlook claim per LOW paper
    (at most 3), one Overview claim."""
    standing = [(citation, trust) for citation, trust in papers if trust in ("HIGH", "MEDIUM")][:5]
    stale = [citation for citation, trust in papers if trust == "LOW"][:3]
    return {
        "overview": [{"text": "The retrieved evidence is summarised below.", "confidence": "MEDIUM", "citations": []}],
        "key_findings": [{"text": f"This study reports the accuracy of the product {citation}.", "confidence": trust, "citations": [citation]}
                         for citation, trust in standing]
        or [{"text": "No retrieved paper stands on sound evidence.", "confidence": "LOW", "citations": []}],
        "active_debates": [],
        "outlook": [{"text": f"{citation} rests on a flagged edge or a replaced dataset version.", "confidence": "HIGH", "citations": [citation]}
                    for citation in stale],
    }


@dataclass
class BriefsModel(FakeGroq):
    """FakeGroq answering the briefs' prompts (module docstring). `obey(kind, fenced, papers)` -> an answer (a dict,
    sent as JSON, or a str sent as is) or None to answer honestly; `heard` lists the kinds of prompt it answered and
    `usage` the usage each of its answers reported, in order."""

    obey: Callable[[str, dict[str, str], list[tuple[str, str]]], dict | str | None] | None = None

    def __post_init__(self) -> None:
        self.heard: list[str] = []
        self.usage: list[dict] = []

    def ok(self, request: httpx.Request, content: str | None = None, **usage) -> httpx.Response:
        if content is None:
            kind, fenced, papers = prompt_kind(request), fenced_data(request), prompt_papers(request)
            self.heard.append(kind)
            told = self.obey(kind, fenced, papers) if self.obey else None
            if told is None:
                told = honest_plan(fenced["question"]) if kind == PLANNER else honest_brief(papers)
            content = told if isinstance(told, str) else json.dumps(told)
        usage.setdefault("completion_tokens", math.ceil(len(content) / 4))
        response = super().ok(request, content, **usage)
        self.usage.append(response.json()["usage"])
        return response


@contextmanager
def serving(fake: FakeGroq) -> Iterator[FakeGroq]:
    """Groq's chat completions (groq_fakes.COMPLETIONS) answered by `fake` at the HTTP transport (respx) while the
    block runs."""
    with respx.mock(assert_all_called=False) as router:
        router.post(COMPLETIONS).mock(side_effect=fake)
        yield fake
