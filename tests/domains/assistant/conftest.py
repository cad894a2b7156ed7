"""Settings for the Assistant's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fresh_catalogs() -> Iterator[None]:
    """Each test builds the catalogs' :class:`~embodiedweb.domains.assistant.checks.Candidates` afresh: under
    ``make mutate`` a catalog cached by the parent process before a mutant was switched on hid that mutant of
    ``Candidates`` (stop 35: a mutant that dropped every short form of a person's name survived
    ``test_people_count_without_their_middle_names``)."""
    from embodiedweb.domains.assistant import checks

    checks._catalog.cache_clear()
    yield
