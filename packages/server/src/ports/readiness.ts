/**
 * One dependency a process needs to do its work (the database, the object store, the render
 * threads): `check` resolves when it is usable now and rejects with the reason otherwise.
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}
