"""`naive_search`'s answers on one catalogue, for tests that ask it hundreds of times.

`naive_search` (the reference the keyword index is held to) scores every tool again for each query:
on 2,000 to 10,000 tools, most of those tests' time. `Naive` gives the same answers with the work
shared between queries, and `checked` asks `naive_search` itself too, on every so many queries, so a
reference drifting from the package's fails the test that uses it.
"""

import numpy as np

from toolkit.search.keyword import Match, clean_terms, naive_search


class Naive:
    """`naive_search` on one catalogue: the texts lower-cased once, each cleaned term's score over every
    tool (`score_text`'s: 2 in the name + 1 in the description) taken once and kept, a query's scores
    their sum, the stable sort and the cut `naive_search`'s."""

    def __init__(self, specs):
        self.specs, self.columns, self.asked = specs, {}, 0
        self.texts = [(s.name.lower(), (s.description or "").lower()) for s in specs]  # as `score_text` reads them

    def column(self, term):
        if term not in self.columns:
            scores = (2 * (term in name) + (term in description) for name, description in self.texts)
            self.columns[term] = np.fromiter(scores, dtype=np.int64, count=len(self.texts))
        return self.columns[term]

    def search(self, terms, max_results=5, min_score=1):
        scores = sum((self.column(t) for t in clean_terms(terms)), np.zeros(len(self.specs), dtype=np.int64))
        order = np.argsort(-scores, kind="stable")
        kept = order[scores[order] >= min_score][:max_results].tolist()
        return [Match(self.specs[i].name, self.specs[i].description, int(scores[i])) for i in kept]

    def checked(self, terms, max_results=5, min_score=1, every=10):
        """`search`'s answer; the 1st, the `every`+1-th, … asked of this catalogue are compared with
        `naive_search`'s first."""
        answer = self.search(terms, max_results, min_score)
        if self.asked % every == 0:
            assert answer == naive_search(terms, self.specs, max_results, min_score), terms
        self.asked += 1
        return answer
