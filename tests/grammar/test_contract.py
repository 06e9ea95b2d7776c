"""The pack contract checks itself: every installed pack registers whole, and a pack lacking a part
(a handler, a risk, help examples, a rule or the reason for none) is refused with a message naming
that part."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from napari_talk.core.basics.commands import Command
from napari_talk.core.basics.result import Result
from napari_talk.core.contract.pack import Handlers, Pack
from napari_talk.core.contract.registry import ContractError, Registry, check_contract, installed_packs
from napari_talk.core.rules.rule import Rule


def test_every_installed_pack_registers_and_keeps_its_whole_contract():
    packs = installed_packs()
    assert {"viewer", "files", "rays", "mesh", "atlas", "session"} <= {p.name for p in packs}
    registry = Registry(packs)
    for pack in registry.packs:
        check_contract(pack, handlers=True)
        assert pack.handlers_at_hand
    assert all(rule.command in registry.commands.values() for rule in registry.rules)


class Beep(Command, action="beep_for_test"):
    """Beep once."""

    examples: ClassVar[tuple[str, ...]] = ("beep",)


class Hum(Command, action="hum_for_test"):
    """Hum a tune."""

    examples: ClassVar[tuple[str, ...]] = ("hum",)


def _pack(command: type[Command], *, rules: tuple[Rule, ...] | None = None, handled: bool = True) -> Pack:
    handlers = Handlers[None]()
    if handled:
        handlers.on(command)(lambda _command, _ctx: Result.success("done"))
    return Pack("broken", (command,), (Rule(command, "beep"),) if rules is None else rules, handlers=handlers)


def _variant(**attributes: Any) -> type[Command]:
    return type("Beep2", (Beep,), {"__doc__": Beep.__doc__, **attributes})


def test_a_whole_pack_registers():
    Registry().register(_pack(Beep))


@pytest.mark.parametrize(
    ("pack", "part"),
    [
        (lambda: _pack(_variant(examples=())), "has no help examples"),
        (lambda: _pack(_variant(risk="maybe")), "has no risk"),
        (lambda: _pack(_variant(__doc__="")), "has no description"),
        (lambda: _pack(Beep, rules=()), "has no grammar rule"),
        (lambda: _pack(Beep, rules=(Rule(Hum, "hum"),)), "a rule reads 'hum_for_test'"),
    ],
)
def test_a_pack_lacking_a_part_is_refused_naming_the_part(pack, part):
    with pytest.raises(ContractError, match=part) as refused:
        Registry().register(pack())
    assert "pack 'broken'" in str(refused.value)


class Quiet(Command, action="quiet_for_test"):
    """Say nothing."""

    examples: ClassVar[tuple[str, ...]] = ("quiet_for_test",)
    no_rule: ClassVar[str] = "agents call it; nobody types it"


def test_a_stated_reason_stands_in_for_a_rule():
    Registry().register(_pack(Quiet, rules=()))


NO_HANDLER = (
    r"pack 'broken': command 'beep_for_test' \(Beep\) has no handler: bind one with @handlers.on\(Beep\)"
)


def test_a_pack_missing_a_handler_is_refused_at_register():
    with pytest.raises(ContractError, match=NO_HANDLER):
        Registry().register(_pack(Beep, handled=False))


class LazyPack(Pack[None]):
    """A pack that imports its handlers on first use, as the bundled ones do."""

    loads = 0

    def handlers(self) -> Handlers[None]:
        type(self).loads += 1
        return Handlers[None]()  # the module it would import binds no handler


def test_a_lazy_pack_missing_a_handler_is_refused_when_its_handlers_load_not_at_import():
    from napari_talk.core.running.session import Session

    pack = LazyPack("broken", (Beep,), (Rule(Beep, "beep"),))
    registry = Registry([pack])
    assert LazyPack.loads == 0 and not pack.handlers_at_hand  # registering imported nothing
    with pytest.raises(ContractError, match=NO_HANDLER):
        check_contract(pack, handlers=True)
    turn = Session(registry=registry).run("beep")
    assert not turn.ok
    assert "command 'beep_for_test' (Beep) has no handler" in turn.message


def test_a_rule_takes_a_command_class_not_a_name():
    with pytest.raises(TypeError, match="command class"):
        Rule("beep_for_test", "beep")  # type: ignore[arg-type]


def test_a_pack_names_its_handlers_and_they_load_on_first_use_through_one_resolver():
    from napari_talk.packs.session.commands import COMMANDS

    table = "napari_talk.packs.session.handlers:HANDLERS"
    pack: Pack = Pack("session_again", COMMANDS, handlers=table)
    assert not pack.handlers_at_hand  # declared by name: nothing imported yet
    loaded = pack.checked_handlers()
    assert isinstance(loaded, Handlers) and all(command in loaded for command in COMMANDS)
    assert pack.handlers_at_hand


@pytest.mark.parametrize(
    "where", ["napari_talk.no_such_module:HANDLERS", "napari_talk.packs.session.handlers:NONE"]
)
def test_a_handler_table_that_cannot_be_found_is_a_contract_error_naming_the_pack(where):
    pack = Pack("misnamed", (Beep,), (Rule(Beep, "beep"),), handlers=where)
    Registry([pack])  # registering imports nothing
    with pytest.raises(ContractError, match=f"pack 'misnamed': its handlers \\({where}\\) cannot be loaded"):
        check_contract(pack, handlers=True)
