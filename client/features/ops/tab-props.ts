/** What every workspace tab receives from the shell. */
export interface TabProps {
  /** The signed-in role: OPS gets simplified stock and cost views. */
  role: 'ADMIN' | 'OPS';
}
