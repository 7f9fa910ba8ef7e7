export function somethingElse() {
  return 1;
}
