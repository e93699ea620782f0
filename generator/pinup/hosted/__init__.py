"""Hosted mode, client side: publish a built site to S3, pull hosted feedback, aggregate results.

The Lambda side lives in `pinup_feedback`; this package only talks to S3 the way
that endpoint lays its objects out, so the two stay independent.
"""
