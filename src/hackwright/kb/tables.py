"""Readable pages generated from NetHack's own monster and object tables.

One page per monster species and per named object type, with the real
numbers read from ``mons[]``/``objects[]`` (via ``hackwright.api.knowledge``),
written as short sentences so that both BM25 and a sentence encoder can match
a player's question ("is it safe to eat a cockatrice corpse?") to the page.
Plus one page per monster class and per object class listing its members,
and for the classes whose appearances are shuffled each game, the members
grouped by base price (the usual way to price-identify them in a shop).

The explanatory phrases for attack and damage types describe what NetHack's
code does with them; nothing else is typed in by hand.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from nle import nethack as nh

from ..api import knowledge as K
from ..api import nethack_tables as T
from ..api.glyphs import OBJECT_CLASS_NAMES
from .documents import Document, Section

# What an attack type means for the hero (monattk.h AT_*).
ATTACK_PHRASES = {
    "passive": "passive: hurts whoever hits it in melee, not an attack of its own",
    "claw": "claw",
    "bite": "bite",
    "kick": "kick",
    "butt": "head butt",
    "touch": "touch",
    "sting": "sting",
    "hug": "hug (crushes; it may hold you)",
    "spit": "spit (a ranged attack)",
    "engulf": "engulf (swallows you whole)",
    "breath": "breath weapon (a ray from a distance)",
    "explosion": "explodes at you, dying in the blast",
    "explodes when killed": "explodes when it is killed",
    "gaze": "gaze (works only when you can see each other)",
    "tentacles": "tentacles",
    "weapon": "weapon attack (base damage without the weapon's own)",
    "spell": "casts spells",
}
# What a damage type does (monattk.h AD_*, as mhitu.c/uhitm.c apply them).
DAMAGE_PHRASES = {
    "physical": "ordinary physical damage",
    "magic missile": "magic missiles; magic resistance protects",
    "fire": "fire: burns you and may destroy scrolls, potions and spellbooks; fire resistance protects",
    "cold": "cold: may freeze and shatter potions; cold resistance protects",
    "sleep": "puts you to sleep; sleep resistance protects",
    "disintegration": "disintegration: destroys you or your armour; disintegration resistance or reflection protect",
    "shock": "electric shock: may blow up rings and wands; shock resistance protects",
    "poison": "poison: may lower Strength, deal extra damage or rarely kill outright; poison resistance protects",
    "acid": "acid: burns and corrodes",
    "blinding": "blinds you",
    "stun": "stuns you so that you stagger in random directions",
    "slow": "slows you down",
    "paralysis": "paralysis: leaves you helpless, unable to move, for several turns; free action protects",
    "level drain": "drains experience levels",
    "energy drain": "drains your magical energy (power)",
    "leg wounding": "wounds your legs",
    "petrification": "petrification: slowly turns you to stone; eating a lizard corpse or an acidic corpse cures it",
    "sticky": "sticks to you so that you cannot move away",
    "gold theft": "steals gold",
    "item theft": "steals an item and then teleports away",
    "seduction": "seduces you into taking off armour, and steals",
    "teleportation": "teleports you",
    "rust": "rusts iron armour and weapons",
    "confusion": "confuses you",
    "digestion": "digests you when it has swallowed you: get out fast or die",
    "healing": "heals you",
    "drowning wrap": "wraps around you and can drown you in water",
    "lycanthropy": "infects you with lycanthropy (you become a were-creature)",
    "dexterity poison": "poison that lowers Dexterity; poison resistance protects",
    "constitution poison": "poison that lowers Constitution; poison resistance protects",
    "brain eating": "eats your brain: lowers Intelligence and makes you forget",
    "disease": "makes you deathly ill unless cured",
    "rot": "rots organic armour",
    "hallucination": "makes you hallucinate",
    "death touch": "the touch of death: can kill outright unless you have magic resistance",
    "pestilence": "pestilence: deathly illness",
    "famine": "famine: makes you hungry",
    "sliming": "turns you into green slime unless cured (fire or prayer)",
    "disenchantment": "removes enchantment from your armour and weapons",
    "corrosion": "corrodes armour and weapons",
    "clerical spell": "clerical spells",
    "mage spell": "mage spells",
    "random breath": "a random kind of breath",
    "amulet theft": "steals the Amulet of Yendor",
    "curse": "curses items in your inventory",
    "special": "a special effect of its own",
}
# prop.h property numbers used as objects' oc_oprop (NetHack 3.6).
PROPERTIES = {
    1: "fire resistance", 2: "cold resistance", 3: "sleep resistance", 4: "disintegration resistance",
    5: "shock resistance", 6: "poison resistance", 7: "acid resistance", 8: "petrification resistance",
    9: "drain resistance", 10: "sickness resistance", 11: "invulnerability", 12: "magic resistance",
    13: "stun", 14: "confusion", 15: "blindness", 16: "deafness", 17: "sickness", 18: "stoning",
    19: "strangulation", 20: "vomiting", 21: "slippery fingers", 22: "sliming", 23: "hallucination",
    24: "hallucination resistance", 25: "fumbling", 26: "wounded legs", 27: "falling asleep", 28: "hunger",
    29: "see invisible", 30: "telepathy", 31: "warning", 32: "warning of monsters", 33: "warning of undead",
    34: "automatic searching", 35: "clairvoyance", 36: "infravision", 37: "monster detection",
    38: "adornment (Charisma)", 39: "invisibility", 40: "displacement", 41: "stealth", 42: "aggravate monster",
    43: "conflict", 44: "jumping", 45: "teleportitis", 46: "teleport control", 47: "levitation", 48: "flying",
    49: "water walking", 50: "swimming", 51: "magical breathing", 52: "passing through walls",
    53: "slow digestion", 54: "half spell damage", 55: "half physical damage", 56: "regeneration",
    57: "energy regeneration", 58: "protection", 59: "protection from shape changers", 60: "polymorphitis",
    61: "polymorph control", 62: "unchanging", 63: "speed (very fast)", 64: "reflection", 65: "free action",
    66: "sustained abilities", 67: "life saving",
}
# What the commonest worn properties do, in a few words (as NetHack's code applies them).
PROPERTY_GLOSSES = {
    "free action": "you cannot be paralysed or frozen by most means",
    "reflection": "rays and gazes are reflected back",
    "magic resistance": "protects against many magical attacks, death rays, destroy armor and polymorph traps",
    "life saving": "if you die you are brought back to life once, and the amulet is used up",
    "telepathy": "sense the minds of monsters around you while blind",
    "see invisible": "see invisible monsters",
    "stealth": "sleeping monsters are less likely to wake as you move",
    "speed (very fast)": "you move faster",
    "levitation": "you float: you cannot go down stairs or reach the floor",
    "slow digestion": "you need very little food",
    "regeneration": "you heal every turn, at the price of faster hunger",
    "conflict": "monsters near you fight each other and you",
    "teleport control": "you choose where you land when you teleport",
    "teleportitis": "you teleport at random",
    "polymorph control": "you choose what you turn into when polymorphed",
    "polymorphitis": "you polymorph at random",
    "displacement": "monsters see you where you are not",
    "strangulation": "it strangles you: death in six turns unless removed",
    "sustained abilities": "your attributes cannot be changed",
    "invisibility": "monsters that cannot see invisible do not see you",
    "water walking": "walk on water",
    "magical breathing": "you need not breathe: no drowning or strangling",
    "fumbling": "you trip and drop things",
    "hunger": "you get hungry faster",
    "aggravate monster": "monsters are drawn to you and wake up",
    "warning": "you are warned of nearby hostile monsters",
    "automatic searching": "you search for hidden things every turn",
    "protection": "better armour class",
    "unchanging": "you cannot change form",
    "poison resistance": "poison does not hurt you",
    "fire resistance": "fire does not hurt you",
    "cold resistance": "cold does not hurt you",
    "shock resistance": "electricity does not hurt you",
    "falling asleep": "you fall asleep now and then",
}
_SPEED_WORDS = ((0, "does not move"), (3, "very slow"), (9, "slow"), (12, "normal speed"),
                (15, "fast"), (24, "very fast"))
_FREQUENCY = {0: "not randomly generated", 1: "very rare", 2: "quite rare", 3: "rare", 4: "uncommon",
              5: "common", 6: "very common", 7: "very common"}
_WORN_CLASSES = {K.RING_CLASS: "Wearing it", K.AMULET_CLASS: "Wearing it", K.ARMOR_CLASS: "Wearing it"}
# Classes whose appearances are shuffled each game: price groups help identify them.
_PRICE_ID_CLASSES = (K.POTION_CLASS, K.SCROLL_CLASS, K.WAND_CLASS, K.RING_CLASS, K.AMULET_CLASS, K.SPBOOK_CLASS)


_WAND_DIRECTIONS = {
    "non-directional": "When zapped it asks for no direction (non-directional).",
    "directional (beam)": "When zapped it asks for a direction and acts on what its beam meets (directional).",
    "ray": "When zapped it asks for a direction and shoots a ray that can bounce off walls.",
}


def _speed_words(speed: int) -> str:
    word = "extremely fast"
    for limit, w in _SPEED_WORDS:
        if speed <= limit:
            word = w
            break
    return word


def _alignment_words(a: int) -> str:
    if a == 0:
        return "neutral"
    kind = "lawful" if a > 0 else "chaotic"
    return f"{kind} ({a:+d})"


def _class_explain(mlet: int) -> tuple[str, str]:
    cs = nh.class_sym.from_mlet(chr(mlet))
    sym = cs.sym if isinstance(cs.sym, str) else chr(cs.sym)
    return sym, cs.explain


def _a(noun: str) -> str:
    return noun if noun[:1].isupper() else ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# What a passive response does to whoever hits the monster, where it differs from the attack itself.
PASSIVE_PHRASES = {
    "petrification": "touching it with bare hands (hitting it without gloves or a weapon) turns you to stone",
    "acid": "you may be splashed with acid, and your weapon may corrode",
    "rust": "your weapon may rust",
    "corrosion": "your weapon may corrode",
    "disenchantment": "your weapon may lose its enchantment",
}


def _attack_sentence(a: T.Attack) -> str:
    at = K.ATTACK_TYPES.get(a.aatyp, f"attack type {a.aatyp}")
    ad = K.DAMAGE_TYPES.get(a.adtyp, f"damage type {a.adtyp}")
    dice = f"{a.damn}d{a.damd}" if a.damn and a.damd else ""
    if at == "passive":
        if a.damn == 0 and a.damd:
            dice = f"(level+1)d{a.damd}"  # uhitm.c passive(): no dice count means the monster's level plus one
        effect = PASSIVE_PHRASES.get(ad, DAMAGE_PHRASES.get(ad, ad))
        return f"Passive {ad}{f' ({dice})' if dice else ''}: when you hit it in melee, {effect}."
    head = ATTACK_PHRASES.get(at, at)
    head = head[:1].upper() + head[1:]
    return f"{head}{f', {dice}' if dice else ''}, {ad}: {DAMAGE_PHRASES.get(ad, ad)}."


def monster_page(index: int, doc_id: str) -> Document:
    """The page of one ``mons[]`` entry."""
    m = T.monsters()[index]
    info = K.monster_info(index)
    sym, explain = _class_explain(m.mlet)
    name = m.mname
    freq = m.geno & 0x7
    lead = (
        f"{name[:1].upper() + name[1:]} is a monster shown as '{sym}' ({explain}). "
        f"Level {m.mlevel}, speed {m.mmove} ({_speed_words(m.mmove)}), armour class {m.ac}, "
        f"magic resistance {m.mr}%, difficulty {m.difficulty}, alignment {_alignment_words(m.maligntyp)}, "
        f"size {info.size}. Generation: {_FREQUENCY.get(freq, 'rare') if not m.geno & 0x200 else 'not randomly generated'}."
    )
    sections = [Section("", lead)]
    attacks = [_attack_sentence(a) for a in m.attacks]
    sections.append(Section("Attacks", " ".join(attacks) if attacks else "It has no attacks: it is harmless in melee."))
    res = info.resistances
    sections.append(Section("Resistances", f"It resists {_list(res)}." if res else "It has no resistances."))
    flags = [f for f in info.flags if f not in ("petrifies", "hallucinogenic", "never rots", "cures stoning")]
    if flags:
        sections.append(Section("Properties", f"{name[:1].upper() + name[1:]}: {', '.join(flags)}."))
    sections.append(Section("Corpse", _corpse_text(index, info)))
    return Document(doc_id, name, "monsters", tuple(sections), aliases=(f"{name} corpse",) if info.leaves_corpse else ())


def _corpse_text(index: int, info) -> str:
    m = T.monsters()[index]
    if not info.leaves_corpse:
        return f"Killing {_a(m.mname)} leaves no corpse."
    parts = [f"The {m.mname} corpse weighs {m.cwt} and gives {m.cnutrit} nutrition when eaten."]
    if info.conveys:
        good = [f"{g} resistance" if g in K.RESISTANCE_BITS else g for g in info.conveys]
        parts.append(f"Eating it may grant {_list(good)}.")
    # The same verdict nh.is_safe_to_eat gives for a freshly killed one, eater unknown.
    safe, why = K.corpse_verdict(m.mname, 0)
    if safe:
        notes = [n for n in why.split(": ", 1)[-1].split("; ") if "turns old" not in n and not n.startswith("may grant")]
        parts.append("Is it safe to eat? Yes, when fresh" + (f" ({'; '.join(notes)})" if notes else "") + ".")
        if "never rots" not in info.flags:
            parts.append(f"Corpses older than {K.SAFE_CORPSE_AGE} turns may be tainted (deadly food poisoning).")
    else:
        parts.append(f"Is it safe to eat? No: {why}.")
    return " ".join(parts)


def monster_documents() -> Iterator[Document]:
    """A page per species, then a page per monster class."""
    seen: set[str] = set()
    by_class: dict[int, list[str]] = defaultdict(list)
    for m in T.monsters():
        sym, _ = _class_explain(m.mlet)
        doc_id = f"monster:{m.mname}"
        if doc_id in seen:  # the were-creatures have a human and an animal entry of one name
            doc_id = f"monster:{m.mname} ({sym})"
        seen.add(doc_id)
        by_class[m.mlet].append(m.mname)
        yield monster_page(m.index, doc_id)
    for mlet, names in sorted(by_class.items()):
        sym, explain = _class_explain(mlet)
        text = (f"Monsters shown as '{sym}' are of the class {explain}. "
                f"Members: {_list(list(dict.fromkeys(names)))}.")
        yield Document(f"monster class:{sym}", f"monster class {sym}: {explain}", "monsters", (Section("", text),))


# ------------------------------------------------------------------ objects
def _object_lead(index: int, info) -> str:
    o = T.objects()[index]
    cls = OBJECT_CLASS_NAMES.get(o.oc_class, "object")
    name = info.name
    bits = [f"{name[:1].upper() + name[1:]} is {_a(cls)} object"]
    if info.material == "varies":
        mats = info.extra.get("possible_materials", [])
        bits.append(f"made of a material that varies with its appearance ({', '.join(mats)})")
    else:
        bits.append(f"made of {info.material}" + (" material" if info.material in ("organic", "flesh", "veggy") else ""))
    s = " ".join(bits) + f". Weight {info.weight}, base price {info.base_price} zorkmids"
    if info.extra.get("probability"):
        s += f", relative generation probability {info.extra['probability']}"
    s += "."
    if o.oc_magic:
        s += " It is magical."
    if info.extra.get("unique"):
        s += " It is unique."
    return s


def _appearance_text(index: int, info) -> str:
    if info.description:
        s = f"Unidentified it looks like: {info.description}."
        if info.extra.get("shares_appearance_with"):
            s += f" The same appearance is shared by {_list(info.extra['shares_appearance_with'])}."
        return s
    looks = info.extra.get("possible_appearances")
    if looks:
        cls = OBJECT_CLASS_NAMES.get(T.objects()[index].oc_class, "object")
        # The list itself is on the class page: repeated on every member it would drown BM25.
        return (f"Unidentified, it has one of {len(looks)} {cls} appearances chosen at random each game "
                f"(such as {looks[0]}); it must be identified to know it.")
    return "It is always recognisable by its name."


def object_page(index: int, doc_id: str) -> Document:
    """The page of one ``objects[]`` entry."""
    o = T.objects()[index]
    info = K.object_info(index)
    sections = [Section("", _object_lead(index, info))]
    details: list[str] = []
    if info.damage_small:
        hands = "two-handed" if info.extra.get("two_handed") else "one-handed"
        kinds = "/".join(info.extra.get("damage_kind", [])) or "blunt"
        details.append(
            f"Damage {info.damage_small} against small monsters and {info.damage_large} against large ones"
            + (f", to-hit bonus {info.extra['hit_bonus']:+d}" if "hit_bonus" in info.extra else "")
            + (f", {hands}, {kinds}" if o.oc_class in (K.WEAPON_CLASS, K.TOOL_CLASS) else "") + "."
        )
    if info.skill and o.oc_class != K.SPBOOK_CLASS:
        details.append(f"Skill: {info.skill}.")
    if info.extra.get("ammo_or_missile"):
        details.append(f"It is {info.extra['ammo_or_missile']}, meant to be fired or thrown.")
    if info.armor_slot:
        details.append(
            f"Armour worn as {info.armor_slot}: gives AC {info.armor_class}, magic cancellation "
            f"{info.extra.get('magic_cancellation', 0)}, takes {info.extra.get('turns_to_put_on', 1)} turn(s) to put on."
        )
    if o.oc_oprop and o.oc_oprop in PROPERTIES:
        prop = PROPERTIES[o.oc_oprop]
        if prop in PROPERTY_GLOSSES:
            prop = f"{prop} ({PROPERTY_GLOSSES[prop]})"
        if o.oc_class in _WORN_CLASSES:
            details.append(f"{_WORN_CLASSES[o.oc_class]} gives {prop}.")
        elif o.oc_class == K.POTION_CLASS:
            details.append(f"Drinking it causes {prop}.")
        else:
            details.append(f"It confers {prop}.")
    if info.nutrition is not None:
        details.append(f"Nutrition {info.nutrition}; takes {info.extra.get('turns_to_eat', 1)} turn(s) to eat.")
    if "spell_level" in info.extra:
        details.append(f"Teaches a level {info.extra['spell_level']} spell of the {info.skill} school, "
                       f"{info.extra.get('direction', '')}.")
    if o.oc_class == K.WAND_CLASS and "direction" in info.extra:
        details.append(_WAND_DIRECTIONS.get(info.extra["direction"], ""))
    if o.oc_charged and o.oc_class == K.TOOL_CLASS:
        details.append("It has charges.")
    elif o.oc_charged and o.oc_class == K.RING_CLASS:
        details.append("It has an enchantment (a number such as +1) that matters for its effect.")
    if details:
        sections.append(Section("Use", " ".join(details)))
    sections.append(Section("Appearance", _appearance_text(index, info)))
    if o.oc_class in _PRICE_ID_CLASSES:
        n_same = sum(1 for x in T.objects() if x.name and x.oc_class == o.oc_class and x.oc_cost == o.oc_cost) - 1
        cls = OBJECT_CLASS_NAMES.get(o.oc_class, "object")
        sections.append(Section("Price identification", (
            f"Shops sell it for a multiple of its base price {o.oc_cost}; "
            + (f"{n_same} other {cls}s share that base price." if n_same else f"no other {cls} has that base price.")
        )))
    aliases = (o.name,) if o.name and o.name != info.name else ()
    return Document(doc_id, info.name, "objects", tuple(sections), aliases)


def object_documents() -> Iterator[Document]:
    """A page per named object type, then one per object class (with price groups)."""
    by_class: dict[int, list[int]] = defaultdict(list)
    for o in T.objects():
        if not o.name:
            continue  # spare random appearances without an object of their own
        by_class[o.oc_class].append(o.index)
        yield object_page(o.index, f"object:{K.full_name(o.index)}")
    for cls, members in sorted(by_class.items()):
        if len(members) < 2:
            continue  # the lone "strange object", gold: a class page would add nothing
        cname = OBJECT_CLASS_NAMES.get(cls, f"class {cls}")
        sections = [Section("", f"The {cname} class has {len(members)} kinds: "
                                 f"{', '.join(K.full_name(i) for i in members)}.")]
        if cls in _PRICE_ID_CLASSES:
            groups: dict[int, list[str]] = defaultdict(list)
            for i in members:
                groups[T.objects()[i].oc_cost].append(K.full_name(i))
            lines = [f"base price {cost}: {', '.join(names)}" for cost, names in sorted(groups.items())]
            sections.append(Section("Price groups", f"{cname.capitalize()}s by base price (for price "
                                                    f"identification in shops): " + "; ".join(lines) + "."))
        looks = sorted({a for i in members for a in K.object_info(i).extra.get("possible_appearances", [])})
        if looks:
            sections.append(Section("Random appearances", (
                f"Unidentified {cname}s look like one of these, shuffled each game: {', '.join(looks)}.")))
        yield Document(f"object class:{cname}", f"{cname} class", "objects", tuple(sections))


def table_documents() -> Iterator[Document]:
    """Every generated page: monsters, monster classes, objects, object classes."""
    yield from monster_documents()
    yield from object_documents()


def known_names() -> list[str]:
    """Monster names, then object names (full and bare), for naming encyclopedia entries."""
    names = [m.mname for m in T.monsters()]
    for o in T.objects():
        if o.name:
            names.append(K.full_name(o.index))
            if o.name != K.full_name(o.index):
                names.append(o.name)
    return list(dict.fromkeys(names))
