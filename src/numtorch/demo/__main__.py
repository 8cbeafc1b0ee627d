"""Run the demo: the classic autograd walkthrough, with numtorch standing in for torch."""

from .walkthrough import main

main()
