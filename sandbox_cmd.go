package main

func runSandbox(args []string) int { return 2 }
