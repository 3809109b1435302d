//! verdict: safe
//! paths: 1
//! run: input= output=6,0,3 result=123450
//! source: corpus (interpreter semantics)
//! note: arrays are values: `row = m[1]` copies the row, so `m[1][2] = 0` writes only into m; the result reads m's digits row by row

main() {
  var m, row, i, j, s;
  m = [[1, 2, 3], [4, 5, 6]];
  row = m[1];
  m[1][2] = 0;
  output row[2];
  output m[1][2];
  output m[0][2];
  s = 0;
  i = 0;
  while (i < 2) {
    j = 0;
    while (j < 3) {
      s = s * 10 + m[i][j];
      j = j + 1;
    }
    i = i + 1;
  }
  return s;
}
