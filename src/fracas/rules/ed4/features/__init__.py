"""The ED4 combat chapter beyond the core (p.382-398), one file per rule area, listed by
:class:`~fracas.rules.ed4.ruleset.Ed4Ruleset`:

- ``readers``: small pure readers the others share (options declared, rider and mount, light, cover...);
- ``providers``: the modifiers to tests and Defenses (combat options, Harried, Blindsided, cover, sight...);
- ``hooks``: where the chapter changes the round (set-up, Movement, surprise, round start and end, offers);
- ``declaring``: combat options declared, their restrictions on every command, Jump Up, Tail Attack;
- ``strain``: the Strain the options cost;
- ``attack``: the ``attack`` command under the chapter (refusals, stray shots, scatter);
- ``strike``: one strike whatever command makes it (grappling, entangling, knockdown, shattering...);
- ``grappling``: breaking free, keeping and releasing a hold;
- ``thrown``: thrown weapons lying where they land, picking them up, throwing at an area;
- ``spellcasting``: weaving threads and casting;
- ``riding``: mounting, dismounting, galloping, charging, Setting Against a Charge;
- ``flight``: swooping attacks, recovering from a long fall;
- ``falling``: falls off mounts and out of the sky.

The pure book functions they call are :mod:`..options`, :mod:`..situation`, :mod:`..close`,
:mod:`..ranged`, :mod:`..spells`, :mod:`..mounted` and :mod:`..aerial`.
"""
