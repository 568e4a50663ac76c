"""vocabulary.unknown: the tools a CLI offers that agentdeck's vocabulary does not know."""
import pytest

from agentdeck.core.policy import vocabulary
from agentdeck.core.targets import dialects


@pytest.mark.parametrize("module", list(dialects.modules()), ids=lambda m: m.__name__)
def test_declared_tools_are_known_and_new_ones_listed(module):
    vocab = vocabulary.vocabulary([module])
    declared = list(vocabulary.names(vocab))
    assert declared, f"{module.__name__} declares no tools"
    # every declared name is known; a name nobody declares is listed, whatever the spelling
    assert vocabulary.unknown(vocab, declared) == []
    assert vocabulary.unknown(vocab, [*declared, "BrandNewTool9"]) == ["BrandNewTool9"]
