/** A business rule refused the request; routes turn it into a 4xx with this message. */
export class PaymentError extends Error {
  constructor(
    public status: 400 | 403 | 404 | 409,
    message: string,
    public extra: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'PaymentError'
  }
}
