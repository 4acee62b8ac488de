"""What-if replays (DESIGN.md decisions 2-4): a league's season under other rules.

The league's log is put in the target edition's terms (``translate``, by the data tables
of ``mappings/``), folded by the live ledger's own ``Fold`` into a disposable memory store
while ``policies`` apply the documented policy to each decision the target would not
allow, and compared with the real season (``compare``); ``montecarlo`` repeats the replay
with many seeds. Entry points: ``service.whatif`` (one comparison) and
``montecarlo.run_samples``; docs/whatif.md explains the result to a commissioner.
"""
