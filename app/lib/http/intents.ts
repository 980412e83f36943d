/** Forms on one page are told apart by a hidden `intent` field (docs/conventions.md, "UI"). */

/** Whether a posted `intent` is one of `intents` — then it is typed as one of them. */
export function isIntentOf<T extends string>(intents: readonly T[], intent: unknown): intent is T {
  return (intents as readonly unknown[]).includes(intent)
}
