/** What every workspace tab receives from the shell. */
export interface TabProps {
  /** The signed-in role: OPS gets simplified stock and cost views. */
  role: 'ADMIN' | 'OPS';
}

/** A workspace tab's address: tabs link to each other with it. */
export const tabPath = (id: string) => `/ops/${id}`;
