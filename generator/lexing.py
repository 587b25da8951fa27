"""Pygments' RegexLexer, each rule tried only at the characters its matches may start with.

A RegexLexer finds its next token by trying the rules of the current state one
after the other, a Python call and a try of the expression engine per rule, so
most of a code block's time goes to rules that cannot match there: a string's
rules at a space, the whitespace rule at a letter. Which ASCII characters a
rule's match may start with can be read from its expression
(:func:`first_characters`); so each state keeps, by the character at the
position, the rules that may match there, in their order, and the loop tries
only those. The first that matches is the one the whole list would have found,
so the tokens are the same, one for one (tests/test_lexing.py compares the two
over the lexers of the site's code, generated code and every lexer Pygments
has). A rule that may match the empty string, or whose start cannot be read (a
matcher other than a compiled expression's ``match``, a back-reference), is
tried at every character; at the end of the text and at a character beyond
ASCII every rule is tried.

A lexer whose own ``get_tokens_unprocessed`` only wraps Pygments' loop,
calling it as ``RegexLexer.get_tokens_unprocessed`` and changing some tokens
(the C family's, which mark standard types), runs its wrapper around the
filtered loop; lexers that override the loop otherwise are left as they are.
"""

from __future__ import annotations

import dis
import functools
import re
import types
from collections.abc import Iterator
from typing import Any

from pygments.lexer import Lexer, RegexLexer
from pygments.token import Error, Whitespace, _TokenType

try:
    from re import _constants as sre, _parser as sre_parse   # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre
    import sre_parse

_PLAIN_LOOP = RegexLexer.get_tokens_unprocessed


def faster(lexer: Lexer) -> Lexer:
    """``lexer``, or the same lexer (same class, name and options) trying only the rules that may match."""
    cls = type(lexer)
    if (not isinstance(lexer, RegexLexer) or getattr(cls, "token_variants", False) or "_tokens" not in cls.__dict__
            or not (cls.get_tokens_unprocessed is _PLAIN_LOOP or _wraps_plain_loop(cls.get_tokens_unprocessed))):
        return lexer
    return _filtered_class(cls)(**lexer.options)


@functools.cache
def _filtered_class(cls: type) -> type:
    states = {state: _State(rules) for state, rules in cls._tokens.items()}
    loop = cls.get_tokens_unprocessed
    # The class's processed rules are reused (the metaclass would process them again).
    return type(cls.__name__, (cls,), {"_tokens": cls._tokens, "_filtered": states,
                                       "get_tokens_unprocessed": _filtered_loop if loop is _PLAIN_LOOP
                                       else _around_filtered_loop(loop),
                                       "__module__": cls.__module__, "__doc__": cls.__doc__})


def _wraps_plain_loop(function: Any) -> bool:
    """Whether ``function`` (a lexer's own loop) reaches Pygments' loop only as
    ``RegexLexer.get_tokens_unprocessed``, the one thing it asks of that name."""
    if not isinstance(function, types.FunctionType) or function.__globals__.get("RegexLexer") is not RegexLexer:
        return False
    uses = 0
    codes = [function.__code__]
    while codes:        # its own code and the code of what it defines inside
        code = codes.pop()
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        ops = list(dis.get_instructions(code))
        for op, after in zip(ops, ops[1:] + [None]):
            if op.opname in ("LOAD_GLOBAL", "LOAD_NAME") and op.argval == "RegexLexer":
                if after is None or after.opname not in ("LOAD_ATTR", "LOAD_METHOD") \
                        or after.argval != "get_tokens_unprocessed":
                    return False
                uses += 1
    return uses > 0


def _around_filtered_loop(wrapper: types.FunctionType) -> types.FunctionType:
    """``wrapper`` as it is, but reaching the filtered loop where it calls Pygments' own."""
    names = {**wrapper.__globals__, "RegexLexer": _REGEX_LEXER_FILTERED}
    around = types.FunctionType(wrapper.__code__, names, wrapper.__name__, wrapper.__defaults__,
                                wrapper.__closure__)
    around.__kwdefaults__ = wrapper.__kwdefaults__
    around.__qualname__, around.__doc__ = wrapper.__qualname__, wrapper.__doc__
    return around


class _State(dict):
    """A state's rules, ``(match, action, new state)``, by the character at the position: those
    whose matches may start with it, in their order; all of them at the end of the text (``""``)
    and beyond ASCII. Read at the state's first use, kept at each character's."""

    def __init__(self, rules: list[tuple]):
        super().__init__()
        self._rules = rules
        self._firsts: list[frozenset[str] | None] | None = None

    def __missing__(self, char: str) -> list[tuple]:
        if self._firsts is None:
            self._firsts = [_rule_first_characters(rule[0]) for rule in self._rules]
        if char != "" and char < "\x80":
            rules = [rule for rule, firsts in zip(self._rules, self._firsts) if firsts is None or char in firsts]
        else:
            rules = self._rules
        self[char] = rules
        return rules


def _rule_first_characters(rexmatch: Any) -> frozenset[str] | None:
    regex = getattr(rexmatch, "__self__", None)
    if isinstance(regex, re.Pattern) and getattr(rexmatch, "__name__", "") == "match" \
            and isinstance(regex.pattern, str):
        return first_characters(regex.pattern, regex.flags)
    return None


_ASCII = [chr(code) for code in range(128)]
_CATEGORIES = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
               sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W"}
_MATCHING_FLAGS = re.IGNORECASE | re.ASCII | re.DOTALL


@functools.lru_cache(maxsize=4096)     # lexers share rules (C and C++, the shells)
def first_characters(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """The ASCII characters a non-empty match of ``pattern`` may start with; None where it may
    match the empty string or its start cannot be read (a back-reference, a conditional)."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except Exception:   # noqa: BLE001 - whatever the parser refuses is simply tried everywhere
        return None
    chars, empty = _sequence_firsts(list(parsed), parsed.state.flags)
    return None if chars is None or empty else frozenset(chars)


def _sequence_firsts(items: list, flags: int) -> tuple[frozenset[str] | None, bool]:
    """What a match of ``items`` (a parsed expression, in order) may start with, and whether it may be empty."""
    found: frozenset[str] = frozenset()
    for op, value in items:
        chars, empty = _item_firsts(op, value, flags)
        if chars is None:
            return None, True
        found |= chars
        if not empty:
            return found, False
    return found, True


def _item_firsts(op: Any, value: Any, flags: int) -> tuple[frozenset[str] | None, bool]:
    if op is sre.LITERAL:
        if not flags & re.IGNORECASE:
            return (frozenset(chr(value)) if value < 128 else frozenset()), False
        return _matching(re.escape(chr(value)), flags), False
    if op is sre.NOT_LITERAL:
        return _matching(f"[^{re.escape(chr(value))}]", flags), False
    if op is sre.ANY:
        return _matching(".", flags), False
    if op is sre.IN:
        source = _class_source(value)
        return (None, True) if source is None else (_matching(source, flags), False)
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):     # anchors and look-arounds consume nothing
        return frozenset(), True
    if op is sre.SUBPATTERN:
        _, add_flags, del_flags, inner = value
        return _sequence_firsts(list(inner), (flags | add_flags) & ~del_flags)
    if op is sre.BRANCH:
        found, any_empty = frozenset(), False
        for branch in value[1]:
            chars, empty = _sequence_firsts(list(branch), flags)
            if chars is None:
                return None, True
            found, any_empty = found | chars, any_empty or empty
        return found, any_empty
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, _, inner = value
        chars, empty = _sequence_firsts(list(inner), flags)
        return (None, True) if chars is None else (chars, empty or low == 0)
    if op is getattr(sre, "ATOMIC_GROUP", None):
        return _sequence_firsts(list(value), flags)
    return None, True


def _class_source(items: list) -> str | None:
    """A character class, written again from its parse; None if it holds what cannot be."""
    parts = []
    for op, value in items:
        if op is sre.NEGATE:
            parts.insert(0, "^")
        elif op is sre.LITERAL:
            parts.append(re.escape(chr(value)))
        elif op is sre.RANGE:
            parts.append(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
        elif op is sre.CATEGORY and value in _CATEGORIES:
            parts.append(_CATEGORIES[value])
        else:
            return None
    return f"[{''.join(parts)}]"


@functools.lru_cache(maxsize=4096)
def _matching(single: str, flags: int) -> frozenset[str]:
    """The ASCII characters ``single`` (an expression for one character) matches under ``flags``:
    the engine's own answer, case folding and classes included."""
    regex = re.compile(single, flags & _MATCHING_FLAGS)
    return frozenset(char for char in _ASCII if regex.match(char))


def _filtered_loop(self: RegexLexer, text: str, stack: tuple[str, ...] = ("root",)) -> Iterator[tuple]:
    """``RegexLexer.get_tokens_unprocessed``, trying at each position only the rules that may match there."""
    pos = 0
    filtered = self._filtered
    statestack = list(stack)
    by_char = filtered[statestack[-1]]
    while True:
        try:
            rules = by_char[text[pos]]
        except IndexError:      # the end of the text
            rules = by_char[""]
        for rexmatch, action, new_state in rules:
            m = rexmatch(text, pos)
            if m:
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group()
                    else:
                        yield from action(self, m)
                pos = m.end()
                if new_state is not None:
                    if isinstance(new_state, tuple):
                        for state in new_state:
                            if state == "#pop":
                                if len(statestack) > 1:
                                    statestack.pop()
                            elif state == "#push":
                                statestack.append(statestack[-1])
                            else:
                                statestack.append(state)
                    elif isinstance(new_state, int):
                        if abs(new_state) >= len(statestack):
                            del statestack[1:]
                        else:
                            del statestack[new_state:]
                    elif new_state == "#push":
                        statestack.append(statestack[-1])
                    else:
                        raise AssertionError(f"wrong state def: {new_state!r}")
                    by_char = filtered[statestack[-1]]
                break
        else:   # no rule matched: a newline resets to the root state, anything else is an error token
            try:
                if text[pos] == "\n":
                    statestack = ["root"]
                    by_char = filtered["root"]
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break


# What a wrapper around the filtered loop finds under the name RegexLexer.
_REGEX_LEXER_FILTERED = types.SimpleNamespace(get_tokens_unprocessed=_filtered_loop)
