//! run: input=43,43,43,43,43,43,91,62,43,43,43,43,43,43,43,60,45,93,62,46,0 output=42 result=75
//! run: input=43,43,43,43,43,91,46,45,93,0 output=5,4,3,2,1 result=21
//! run: input=44,91,46,44,93,0,7,8,9,0 output=7,8,9 result=11
//! run: input=44,62,44,60,91,62,91,62,43,62,43,60,60,45,93,62,62,91,60,60,43,62,62,45,93,60,60,60,45,93,62,62,46,0,6,7 output=42 result=698
//! run: input=43,43,43,43,43,43,43,43,43,43,62,62,43,60,60,91,62,46,91,45,62,62,43,60,60,93,62,91,45,60,43,62,62,43,60,93,62,91,45,60,43,62,93,60,60,60,45,93,0 output=0,1,1,2,3,5,8,13,21,34 result=3051
//! run: input=45,46,60,45,46 output=-1,-1 result=5
//! run: input= output= result=0
//! run: input=91,0 output= error=null-deref line 42
//! run: input=43,93,0 output= error=null-deref line 54
//! source: corpus (course program)
//! note: a Brainfuck interpreter written in micro-c with records and pointers. The input is the Brainfuck program as ASCII codes, ended by 0 or by the end of the input, then the data read by `,`
//! note: the program is a doubly-linked list of heap records {op, next, prev}; the tape is a doubly-linked list of heap records {val, left, right} grown on demand in both directions; brackets are matched by scanning
//! note: cells hold 32-bit numbers (no wrap at 256); `.` outputs the cell as a number; `,` reads the next input number (-1 once exhausted); main returns the number of Brainfuck instructions executed
//! note: runs: 6*7 by a loop (42), a countdown, echo until 0, multiplication of two inputs, the first ten Fibonacci numbers, a tape grown to the left; an unmatched `[` or `]` walks off the program list (null dereference)
//! note: expected outputs derived independently by a Python Brainfuck interpreter with the same step count

// Reads the program: ASCII codes until 0 or the end of the input.
read_program() {
  var head, tail, c, node;
  head = null;
  tail = null;
  c = input;
  while (c != 0 && c != -1) {
    node = alloc {op: c, next: null, prev: tail};
    if (tail == null) {
      head = node;
    } else {
      tail->next = node;
    }
    tail = node;
    c = input;
  }
  return head;
}

// From a `[`, the matching `]`.
skip_forward(pc) {
  var depth;
  depth = 1;
  while (depth > 0) {
    pc = pc->next;
    if (pc->op == 91) { depth = depth + 1; }
    if (pc->op == 93) { depth = depth - 1; }
  }
  return pc;
}

// From a `]`, the matching `[`.
skip_back(pc) {
  var depth;
  depth = 1;
  while (depth > 0) {
    pc = pc->prev;
    if (pc->op == 93) { depth = depth + 1; }
    if (pc->op == 91) { depth = depth - 1; }
  }
  return pc;
}

// Runs the program from its first instruction; returns the number of instructions executed.
run(pc) {
  var cell, fresh, steps;
  cell = alloc {val: 0, left: null, right: null};
  steps = 0;
  while (pc != null) {
    if (pc->op == 43) { cell->val = cell->val + 1; }
    if (pc->op == 45) { cell->val = cell->val - 1; }
    if (pc->op == 62) {
      if (cell->right == null) {
        fresh = alloc {val: 0, left: cell, right: null};
        cell->right = fresh;
      }
      cell = cell->right;
    }
    if (pc->op == 60) {
      if (cell->left == null) {
        fresh = alloc {val: 0, left: null, right: cell};
        cell->left = fresh;
      }
      cell = cell->left;
    }
    if (pc->op == 46) { output cell->val; }
    if (pc->op == 44) { cell->val = input; }
    if (pc->op == 91) {
      if (cell->val == 0) { pc = skip_forward(pc); }
    } else {
      if (pc->op == 93) {
        if (cell->val != 0) { pc = skip_back(pc); }
      }
    }
    pc = pc->next;
    steps = steps + 1;
  }
  return steps;
}

main() {
  var program;
  program = read_program();
  return run(program);
}
