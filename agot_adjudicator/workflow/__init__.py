"""Use cases on files, between the command line and the pure engine: validate, adjudicate,
what-if, replay, the conformance suite, mail and the site."""
