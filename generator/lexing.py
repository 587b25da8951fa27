"""Pygments' RegexLexer, each state's rules tried as one regular expression.

A RegexLexer finds its next token by trying the rules of the current state one
after the other, a Python call per rule and position, so most of a code block's
time goes to rules that do not match. Joined into one alternation,
``(?:rule1)()|(?:rule2)()|...``, the rules are tried by the regular expression
engine in the same order, and the first that matches wins, as in the loop; the
empty group after each rule, the last group a match of it closes
(``lastindex``), names the rule (a group around it would hide its first
character from the engine, which passes over an alternative that cannot start
at a character without entering it). The tokens are the same, one for one
(tests/test_lexing.py compares the two over the lexers of the site's code and
over generated code).

A rule that cannot be joined keeps its place as an expression of its own: one
with a back-reference or a named group (its numbers or names would clash with
its neighbours'), with flags of its own, or a matcher that is not a compiled
expression's ``match``. A lexer whose own ``get_tokens_unprocessed`` only wraps
Pygments' loop, calling it as ``RegexLexer.get_tokens_unprocessed`` and
changing some tokens (the C family's, which mark standard types), runs its
wrapper around the joined loop; lexers that override the loop otherwise are
left as they are.
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

_PLAIN_LOOP = RegexLexer.get_tokens_unprocessed
# Back-references and conditionals name groups by number or name; flags for a whole
# expression may only open one. Read conservatively: a false alarm only costs speed.
_NOT_JOINABLE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(|\(\?[aiLmsux]+\)")


def faster(lexer: Lexer) -> Lexer:
    """``lexer``, or the same lexer (same class, name and options) with its states' rules joined."""
    cls = type(lexer)
    if (not isinstance(lexer, RegexLexer) or getattr(cls, "token_variants", False) or "_tokens" not in cls.__dict__
            or not (cls.get_tokens_unprocessed is _PLAIN_LOOP or _wraps_plain_loop(cls.get_tokens_unprocessed))):
        return lexer
    return _joined_class(cls)(**lexer.options)


@functools.cache
def _joined_class(cls: type) -> type:
    flags = re.compile("", cls.flags).flags
    states = {state: _join(rules, cls.flags, flags) for state, rules in cls._tokens.items()}
    loop = cls.get_tokens_unprocessed
    # The class's processed rules are reused (the metaclass would process them again).
    return type(cls.__name__, (cls,), {"_tokens": cls._tokens, "_joined": states,
                                       "get_tokens_unprocessed": _joined_loop if loop is _PLAIN_LOOP
                                       else _around_joined_loop(loop),
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


def _around_joined_loop(wrapper: types.FunctionType) -> types.FunctionType:
    """``wrapper`` as it is, but reaching the joined loop where it calls Pygments' own."""
    names = {**wrapper.__globals__, "RegexLexer": _REGEX_LEXER_JOINED}
    around = types.FunctionType(wrapper.__code__, names, wrapper.__name__, wrapper.__defaults__,
                                wrapper.__closure__)
    around.__kwdefaults__ = wrapper.__kwdefaults__
    around.__qualname__, around.__doc__ = wrapper.__qualname__, wrapper.__doc__
    return around


Matcher = tuple   # (match function, rules by group or None, action, new state)


def _join(rules: list[tuple], lexer_flags: int, flags: int) -> list[Matcher]:
    """A state's rules as matchers, in order: runs of joinable rules as one expression each."""
    matchers: list[Matcher] = []
    run: list[tuple] = []

    def close_run() -> None:
        if len(run) == 1:
            rexmatch, action, new_state = run[0]
            matchers.append((rexmatch, None, action, new_state))
        elif run:
            parts, by_group = [], [None]
            newline = "\n" if lexer_flags & re.VERBOSE else ""   # a trailing comment must not eat ")"
            for rexmatch, action, new_state in run:
                regex = rexmatch.__self__
                base = len(by_group) - 1        # the rule's group n is the joined expression's base + n
                by_group.extend([None] * regex.groups)
                # An empty group after the rule, closed last, names it (lastindex); none before it, so
                # that the expression engine sees the rule's first character and skips it at a glance.
                by_group.append((action, new_state, base, regex.groups))
                parts.append(f"(?:{regex.pattern}{newline})()")
            try:
                matchers.append((re.compile("|".join(parts), lexer_flags).match, by_group, None, None))
            except re.error:    # some construct that only holds in an expression of its own
                matchers.extend((rexmatch, None, action, new_state) for rexmatch, action, new_state in run)
        run.clear()

    for rule in rules:
        if _joinable(rule[0], flags):
            run.append(rule)
        else:
            close_run()
            matchers.append((rule[0], None, rule[1], rule[2]))
    close_run()
    return matchers


def _joinable(rexmatch: Any, flags: int) -> bool:
    regex = getattr(rexmatch, "__self__", None)
    return (isinstance(regex, re.Pattern) and getattr(rexmatch, "__name__", "") == "match"
            and isinstance(regex.pattern, str) and regex.flags == flags and not regex.groupindex
            and not _NOT_JOINABLE.search(regex.pattern))


class _RuleMatch:
    """The match of one joined rule, numbered as its own expression's match would be."""

    __slots__ = ("_match", "_group", "_groups")

    def __init__(self, match: re.Match, group: int, groups: int):
        self._match, self._group, self._groups = match, group, groups

    def _index(self, group: int) -> int:
        if not 0 <= group <= self._groups:
            raise IndexError("no such group")
        return self._group + group if group else 0

    def group(self, *groups: int) -> Any:
        if len(groups) <= 1:
            return self._match.group(self._index(groups[0] if groups else 0))
        return tuple(self._match.group(self._index(g)) for g in groups)

    __getitem__ = group

    def groups(self, default: Any = None) -> tuple:
        found = self._match.groups()[self._group:self._group + self._groups]
        return tuple(default if value is None else value for value in found)

    def groupdict(self, default: Any = None) -> dict:
        return {}

    def start(self, group: int = 0) -> int:
        return self._match.start(self._index(group))

    def end(self, group: int = 0) -> int:
        return self._match.end(self._index(group))

    def span(self, group: int = 0) -> tuple[int, int]:
        return self._match.span(self._index(group))

    @property
    def regs(self) -> tuple:
        return tuple(self.span(g) for g in range(self._groups + 1))

    @property
    def string(self) -> str:
        return self._match.string

    @property
    def pos(self) -> int:
        return self._match.pos

    @property
    def endpos(self) -> int:
        return self._match.endpos


def _joined_loop(self: RegexLexer, text: str, stack: tuple[str, ...] = ("root",)) -> Iterator[tuple]:
    """``RegexLexer.get_tokens_unprocessed``, over the joined matchers."""
    pos = 0
    joined = self._joined
    statestack = list(stack)
    matchers = joined[statestack[-1]]
    while True:
        for rexmatch, by_group, action, new_state in matchers:
            m = rexmatch(text, pos)
            if m:
                if by_group is not None:
                    action, new_state, group, groups = by_group[m.lastindex]
                    if action is not None:
                        if type(action) is _TokenType:
                            yield pos, action, m.group()
                        else:
                            yield from action(self, _RuleMatch(m, group, groups))
                elif action is not None:
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
                    matchers = joined[statestack[-1]]
                break
        else:   # no rule matched: a newline resets to the root state, anything else is an error token
            try:
                if text[pos] == "\n":
                    statestack = ["root"]
                    matchers = joined["root"]
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break


# What a wrapper around the joined loop finds under the name RegexLexer.
_REGEX_LEXER_JOINED = types.SimpleNamespace(get_tokens_unprocessed=_joined_loop)
