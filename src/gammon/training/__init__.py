"""Training our own nets: TD(lambda) self-play, refinement on our own deeper targets, ensembles.

Code that makes the shipped weights, not code that plays with them: the runtime
(:mod:`gammon.ai`, :mod:`gammon.play`, the analysis, the server) never imports
this package; only the ``gammon train ...`` command line does
(:mod:`gammon.cli.train_command`).  It stands beside :mod:`gammon.play` and
:mod:`gammon.analysis` in the layers and builds on :mod:`gammon.ai`.

- :mod:`~gammon.training.train`: TD(lambda) self-play (``gammon train td``);
- :mod:`~gammon.training.selfplay`: the compiled self-play turn, game and match
  (and the strength figure) that training and refinement share;
- :mod:`~gammon.training.bundles`: the compiled loops' arguments as named tuples
  (weights, rules, policy, learning, scratch);
- :mod:`~gammon.training.refine`: positions from self-play valued by our own
  search, then supervised refinement (``gammon train refine``);
- :mod:`~gammon.training.positions`: self-play positions and play siblings for it;
- :mod:`~gammon.training.fitting`: the supervised training step (Adam on the
  cross-entropy) of every refinement stage;
- :mod:`~gammon.training.refine_fit`: the training step alone over datasets
  already made (``gammon train refine-fit``);
- :mod:`~gammon.training.lopsided`: refinement on rollouts of a class of
  positions (``gammon train lopsided``);
- :mod:`~gammon.training.ensemble`: the mean of several nets (``gammon train ensemble``);
- :mod:`~gammon.training.runs`: the command line recorded with a run.

Paths given to a stage are taken as given (from the working directory); no
default names a file of the repository (``--base`` defaults to the shipped net).
"""
