/* A header of tests/c/auto.c, found through -I. */
#define SCALE 3
