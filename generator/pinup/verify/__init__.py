"""`pinup verify`: did what was built come out like the approved variant? (see `pinup.verify.run`)."""
