/** The error a measure call answered with, or a plain one when its body says none. */
export async function readError(response: Response) {
  try {
    return ((await response.json()) as { error?: string }).error ?? 'The measurement failed.'
  } catch {
    return 'The measurement failed.'
  }
}
