package main

func runReceive(args []string) int { return 2 }
