"""qwen_session: the chats Qwen Code saves on disk, ``~/.qwen/projects/<project>/chats/*.jsonl``.

The parser is :mod:`linewise_qwen.session.parser` (its system records
:mod:`linewise_qwen.session.system`), the detection
:mod:`linewise_qwen.session.sniff`, the store :mod:`linewise_qwen.session.store`
and the summary :mod:`linewise_qwen.session.summary`. Until contract 1.5 these
were the package's top level (``linewise_qwen.create_stdout_parser`` ...).
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

from linewise_qwen import SESSION_DOC

# Eager: what detection asks (and the name of its module).
from linewise_qwen.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_qwen.session.parser import QwenSessionParser, create_stdout_parser
    from linewise_qwen.session.store import session_stores
    from linewise_qwen.session.summary import summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "QwenSessionParser": "linewise_qwen.session.parser",
        "create_stdout_parser": "linewise_qwen.session.parser",
        "session_stores": "linewise_qwen.session.store",
        "summarize_run": "linewise_qwen.session.summary",
    },
)

__all__ = [
    "QwenSessionParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Qwen Code (saved chats)"

# The routing doc lives in the agent declaration (linewise_qwen), read from there.
agent_configuration_doc = SESSION_DOC
