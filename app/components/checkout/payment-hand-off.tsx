import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { useEffect, useRef } from 'react'

/** Posts the signed fields to PayFast (or the simulator): automatically with JavaScript. */
export function PaymentHandOff({
  paymentUrl,
  fields,
}: {
  paymentUrl: string
  fields: Array<[string, string]>
}) {
  const formRef = useRef<HTMLFormElement>(null)
  const hydrated = useHydrated()
  useEffect(() => {
    if (hydrated) formRef.current?.submit()
  }, [hydrated])
  return (
    <section className="card mt-6 p-6" aria-labelledby="handoff-heading" data-testid="payment-handoff">
      <h2 id="handoff-heading" className="text-lg font-semibold text-ink-950">
        Terms accepted — on to secure payment
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        {hydrated
          ? 'Taking you to PayFast…'
          : 'Continue to PayFast to pay securely. Your card details are entered on PayFast’s page, not ours.'}
      </p>
      <form ref={formRef} method="post" action={paymentUrl} className="mt-4">
        {fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn-primary">
          Continue to secure payment
        </button>
      </form>
    </section>
  )
}
