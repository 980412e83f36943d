/**
 * The one status vocabulary: every screen takes a project's
 * badge label, badge colour and the sentence under it from here, and invoices their
 * badge. Badge labels are the product's (Draft, Pending, Assigned, In Progress, Completed);
 * the sentence tells a paid pending project (waiting for a pilot) from an unpaid one
 * (waiting for payment).
 */
export interface Badge {
  label: string
  className: string
}

const NEUTRAL = 'bg-ink-100 text-ink-700'

const STATUS_BADGES: Record<string, Badge> = {
  draft: { label: 'Draft', className: NEUTRAL },
  pending: { label: 'Pending', className: 'bg-amber-100 text-amber-900' },
  assigned: { label: 'Assigned', className: 'bg-sky-100 text-sky-800' },
  in_progress: { label: 'In Progress', className: 'bg-indigo-100 text-indigo-800' },
  'in-progress': { label: 'In Progress', className: 'bg-indigo-100 text-indigo-800' },
  completed: { label: 'Completed', className: 'bg-emerald-100 text-emerald-800' },
  cancelled: { label: 'Cancelled', className: 'bg-red-100 text-red-800' },
}

/** The statuses an admin may set, in order, with their labels (no ordering is enforced). */
export const ADMIN_STATUSES = ['pending', 'assigned', 'in_progress', 'completed'] as const
export const ADMIN_STATUS_OPTIONS = ADMIN_STATUSES.map((value) => ({
  value,
  label: STATUS_BADGES[value]!.label,
}))

const DRAFT_STATUS_LABEL = 'Draft - Complete Flight Plan'
const PAID_AWAITING_PILOT = 'Paid - Awaiting pilot assignment'
const QUOTE_AWAITING_PAYMENT = 'Quote ready - Awaiting payment'

export function statusBadge(status: string): Badge {
  return STATUS_BADGES[status] ?? { label: status, className: NEUTRAL }
}

/** The sentence next to a project's badge. */
export function statusLabel(project: { status: string; isPaid: boolean; quoteAmount: number | null }) {
  switch (project.status) {
    case 'draft':
      return DRAFT_STATUS_LABEL
    case 'pending':
      if (project.isPaid) return PAID_AWAITING_PILOT
      return project.quoteAmount ? QUOTE_AWAITING_PAYMENT : 'Pending'
    case 'assigned':
      return 'Pilot assigned'
    case 'in_progress':
    case 'in-progress':
      return 'In Progress'
    case 'completed':
      return 'Completed - Deliverables ready'
    case 'cancelled':
      return 'Cancelled'
    default:
      return statusBadge(project.status).label
  }
}

/** Invoice and payment badges: paid green, everything else yellow. */
export function paymentBadge(status: string): Badge {
  if (status === 'paid') return { label: 'Paid', className: 'bg-emerald-100 text-emerald-800' }
  // A quote change voided this invoice: grey, so it never reads as money owed.
  if (status === 'superseded') return { label: 'Superseded', className: 'bg-ink-100 text-ink-700' }
  return {
    label: status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Pending',
    className: 'bg-amber-100 text-amber-900',
  }
}

/** 'Pay Now' shows for an unpaid pending project with a quote. */
export function canPay(project: { status: string; isPaid: boolean; quoteAmount: number | null }) {
  return (
    project.status === 'pending' && !project.isPaid && Boolean(project.quoteAmount && project.quoteAmount > 0)
  )
}

/** Drafts and unpaid pending projects can be (re)planned; paid ones cannot. */
export function canPlan(project: { status: string; isPaid: boolean }) {
  return !project.isPaid && (project.status === 'draft' || project.status === 'pending')
}

/** A paid project can be cancelled (with a refund) until the flight starts. */
export function canCancel(project: { status: string; isPaid: boolean }) {
  return project.isPaid && (project.status === 'pending' || project.status === 'assigned')
}

/** "Fly this again": a completed project, or a paid one that was not cancelled. */
export function canRepeat(project: { status: string; isPaid: boolean }) {
  return project.status === 'completed' || (project.isPaid && project.status !== 'cancelled')
}
