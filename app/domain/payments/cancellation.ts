/**
 * What a client gets back when they cancel a paid project (ADR 112; terms section 6):
 * within the cooling-off days of payment and before the flight, everything; later, up to
 * the no-cancellation window before a scheduled flight, the amount paid less the
 * administration fee and the travel fee; inside that window or once flying, nothing can
 * be cancelled online. Pure and browser-safe: the terms text and the calculation share
 * the constants of terms.ts.
 */
import { CANCELLATION_ADMIN_FEE_PERCENT, COOLING_OFF_DAYS, NO_CANCELLATION_BUSINESS_DAYS } from './terms.ts'

const CANCEL_ALREADY = 'This project has already been cancelled.'
const CANCEL_NOT_PAID =
  'Only a paid project can be cancelled here. Unpaid projects can simply be deleted or left.'
const CANCEL_FLOWN =
  'The flight has already started or been flown, so this project can no longer be cancelled.'
const CANCEL_TOO_LATE = `The flight is less than ${NO_CANCELLATION_BUSINESS_DAYS} business days away, so the order can no longer be cancelled or refunded. Please contact us.`

export interface CancellationFigures {
  basis: 'cooling-off' | 'cancellation-charge'
  refundSubtotal: number
  refundVat: number
  refundAmount: number
  chargeAmount: number
}

interface PaidProject {
  status: string
  isPaid: boolean
  paidAt: Date | null
  scheduledDate: string | null
  travelFee: number | null
}
interface PaidInvoice {
  amount: number
  subtotalAmount: number
  vatAmount: number
}

/** Weekdays after `from` up to and including `to` (both YYYY-MM-DD). Public holidays are not counted out. */
function businessDaysBetween(from: string, to: string) {
  let days = 0
  const end = Date.parse(`${to}T00:00:00Z`)
  for (let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000; t <= end; t += 86_400_000) {
    const weekday = new Date(t).getUTCDay()
    if (weekday !== 0 && weekday !== 6) days += 1
  }
  return days
}

/** Why this project cannot be cancelled, or null when it can. */
function cancellationRefusal(project: PaidProject): string | null {
  if (project.status === 'cancelled') return CANCEL_ALREADY
  if (!project.isPaid) return CANCEL_NOT_PAID
  if (project.status === 'in_progress' || project.status === 'completed') return CANCEL_FLOWN
  return null
}

function withinCoolingOff(paidAt: Date | null, now: Date) {
  return paidAt != null && now.getTime() - paidAt.getTime() <= COOLING_OFF_DAYS * 86_400_000
}

/** The refund for a cancellation now; throws nothing — call `cancellationRefusal` first. */
export function cancellationFigures(
  project: PaidProject,
  invoice: PaidInvoice,
  now: Date,
  today: string,
): CancellationFigures | { refusal: string } {
  const refusal = cancellationRefusal(project)
  if (refusal) return { refusal }
  if (withinCoolingOff(project.paidAt, now)) {
    return {
      basis: 'cooling-off',
      refundSubtotal: invoice.subtotalAmount,
      refundVat: invoice.vatAmount,
      refundAmount: invoice.amount,
      chargeAmount: 0,
    }
  }
  // Cooling-off wins over a close flight date (ECTA s44); after it, the last days before the flight are closed.
  if (
    project.scheduledDate &&
    businessDaysBetween(today, project.scheduledDate) < NO_CANCELLATION_BUSINESS_DAYS
  ) {
    return { refusal: CANCEL_TOO_LATE }
  }
  const adminFee = Math.round((invoice.subtotalAmount * CANCELLATION_ADMIN_FEE_PERCENT) / 100)
  const kept = Math.min(invoice.subtotalAmount, adminFee + (project.travelFee ?? 0))
  const refundSubtotal = invoice.subtotalAmount - kept
  const refundVat =
    invoice.subtotalAmount > 0 ? Math.round((refundSubtotal * invoice.vatAmount) / invoice.subtotalAmount) : 0
  const refundAmount = refundSubtotal + refundVat
  return {
    basis: 'cancellation-charge',
    refundSubtotal,
    refundVat,
    refundAmount,
    chargeAmount: invoice.amount - refundAmount,
  }
}
