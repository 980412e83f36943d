/** The running processing runner (one per server), so services and the webhook can wake it. */
export interface ProcessingRunner {
  /** Looks for due jobs now. */
  kick(): void
  /** Stops the work in hand for a job (its cancel); resolves when its step has ended. */
  abortJob(jobId: number): Promise<void>
  /** Resolves when no active job is left (tests). */
  idle(): Promise<void>
  /** Stops every job's work in hand; their rows stay as they are and resume at the next start. */
  stop(): Promise<void>
}

let current: ProcessingRunner | null = null

export function processingRunner() {
  return current
}

export function setProcessingRunner(runner: ProcessingRunner | null) {
  current = runner
}
