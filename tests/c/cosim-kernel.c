/* The kernel of cosim.c: y += a * x over the first n elements; how many
   elements it changed. */
int saxpy(double a, double x[N], double y[N], int n) {
  int changed = 0;
  for (int i = 0; i < n; i++) {
    double before = y[i];
    y[i] = y[i] + a * x[i];
    if (y[i] != before)
      changed++;
  }
  return changed;
}
