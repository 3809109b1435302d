extern void reach_error(void);
extern void *malloc(unsigned long);
int main(void) {
  int *a = malloc(65536 * sizeof(int));
  for (int i = 0; i < 65536; i++) a[i] = i;
  if (a[100] != 100) reach_error();
  return 0;
}
