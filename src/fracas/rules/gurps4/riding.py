"""Riding (B397, B289): the rider's skill and rolls, falling off, a mount out of control or spooked."""

from __future__ import annotations

from fracas.engine import events as ev
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import core, data, mounted
from fracas.rules.gurps4.figure import S, Work, mount_of, rider_of, shock_now
from fracas.rules.gurps4.geometry import free_hex_near
from fracas.rules.gurps4.modifiers import Modifier, mod

# ---------------------------------------------------------------------------------------- riding


def riding_skill(state: FightState, rider: Combatant) -> int:
    """The rider's Riding skill (default DX-5, B217), -1 while carrying a passenger (B397): the level that
    caps weapon skill and sets the defense penalty."""
    st = S(rider)
    riding = st.riding if st.riding is not None else st.dx - 5
    mount = mount_of(state, rider)
    if mount is not None and mount.marks.get("rider") == rider.id and mount.marks.get("passenger"):
        riding += mounted.CONTROLLER_WITH_PASSENGER
    return riding


def riding_base(state: FightState, rider: Combatant, control: bool = True) -> tuple[int, list[Modifier]]:
    """The rider's Riding skill and the modifiers to a roll to control or stay on the mount (B397, B289,
    data/spooked_mounts.toml). A passenger uses the lower of the controller's Riding and own ST, at -3."""
    st = S(rider)
    mount = mount_of(state, rider)
    if mount is not None and mount.marks.get("passenger") == rider.id:
        ctrl = rider_of(state, mount)
        ctrl_st = S(ctrl) if ctrl is not None else st
        # the controlling rider's skill, or its default DX-5 (B217) if it has none
        ctrl_riding = ctrl_st.riding if ctrl_st.riding is not None else ctrl_st.dx - 5
        base = min(ctrl_riding, st.st)
        return base, [mod(mounted.PASSENGER_STAY_ON, "passenger", "gurps4/mounted/multiple-riders", "B397")]
    riding = st.riding if st.riding is not None else st.dx - 5
    mods: list[Modifier] = shock_now(rider)  # a Riding roll on the rider's own turn (B419)
    if mount is not None:
        ms = S(mount)
        mods += mounted.riding_modifiers(
            war_trained=ms.war_trained,
            stirrups=st.saddle_and_stirrups and control,
            has_passenger=bool(mount.marks.get("passenger")),
            trick_name=rider.marks.get("trick"),
        )
        # stirrups: +1 to control the mount (B289); staying seated: the war saddle's +1 in stay_on()
    return riding, mods


def stay_on(w: Work, rider: Combatant, extra: list[Modifier], why: str) -> bool:
    """A roll to stay on the mount; a failure unhorses the rider. Returns True if the rider stays on."""
    base, mods = riding_base(w.state, rider, control=False)
    if S(rider).saddle == "war_saddle":
        mods.append(
            mod(data.riding_numbers().war_saddle_stay_seated, "war saddle", "gurps4/gear/war-saddle", "B289")
        )
    r = core.success_roll(f"Riding ({why})", base, [*extra, *mods], w.dice)
    w.rolled(rider.id, r, rule="gurps4/mounted/results B397")
    if not r.success:
        unhorse(w, rider, why)
    return r.success


def unhorse(w: Work, rider: Combatant, why: str) -> None:
    mount = mount_of(w.state, rider)
    if mount is None:
        return
    w.mark(rider, "mount", None, "gurps4/mounted/results B397")
    if mount.marks.get("passenger") == rider.id:
        w.mark(mount, "passenger", None)
    else:
        w.mark(mount, "rider", None)
    spot = free_hex_near(w.state, rider)
    if spot is not None:
        w.emit(ev.Moved(rider.id, (spot,), "fall", None, 0, "gurps4/mounted/results B397"))
    w.mark(rider, "posture", "lying")
    w.note(
        f"{rider.name} falls off {mount.name} ({why}); damage from the fall is a GM's call (Falling, B431)",
        rider.id,
        "gurps4/mounted/falling-off B397",
    )
    if w.option("unhorsed_is_out") and rider.active:
        w.emit(ev.StatusChanged(rider.id, "unhorsed", "gurps4/mounted/results B397"))
    if mount.active and not mount.marks.get("rider") and w.option("riderless_mounts_leave"):
        w.emit(ev.StatusChanged(mount.id, "riderless", "gurps4/mounted (GM's call: riderless mount leaves)"))


def mount_loses_control(w: Work, mount: Combatant, result: mounted.LossOfControl, why: str) -> None:
    """Apply a Mount Loss of Control Table result (B397; data/mount_loss_of_control.toml)."""
    label = (
        " (placeholder: complete data/mount_loss_of_control.toml from the book)" if result.placeholder else ""
    )
    w.note(
        f"{mount.name}: Mount Loss of Control {result.roll}: {result.effect}{label} ({why})",
        mount.id,
        "gurps4/mounted/loss-of-control B397",
    )
    rider = rider_of(w.state, mount)
    if result.effect == "falls":
        w.mark(mount, "posture", "lying", "gurps4/mounted/loss-of-control B397")
        for cid in (mount.marks.get("passenger"), mount.marks.get("rider")):
            if cid:
                unhorse(w, w.c(cid), "the mount falls")
    elif result.effect == "throws_rider" and rider is not None:
        unhorse(w, rider, "thrown")
    elif result.effect == "rears" and rider is not None:
        stay_on(w, rider, [], "the mount rears")
    else:  # out_of_control, bolts, stops: the mount does not obey on its next turn
        w.mark(mount, "out_of_control", result.effect, "gurps4/mounted/loss-of-control B397")


def spook(w: Work, mount: Combatant, why: str) -> None:
    """Spooked Mounts (B397) are not public: a spooked mount is out of control on its next turn."""
    w.note(
        f"{mount.name} is spooked ({why}); Spooked Mounts is not public: out of control next turn "
        "(placeholder)",
        mount.id,
        "gurps4/mounted/spooked-mounts B397",
    )
    w.mark(mount, "out_of_control", "spooked", "gurps4/mounted/spooked-mounts B397")
