/** Project status labels and badge colours (spec section 4). */
export const STATUS_BADGES: Record<string, { label: string; className: string }> = {
  draft: { label: 'Draft', className: 'bg-ink-100 text-ink-700' },
  pending: { label: 'Pending', className: 'bg-amber-100 text-amber-900' },
  assigned: { label: 'Assigned', className: 'bg-sky-100 text-sky-800' },
  in_progress: { label: 'In Progress', className: 'bg-indigo-100 text-indigo-800' },
  'in-progress': { label: 'In Progress', className: 'bg-indigo-100 text-indigo-800' },
  completed: { label: 'Completed', className: 'bg-emerald-100 text-emerald-800' },
  cancelled: { label: 'Cancelled', className: 'bg-red-100 text-red-800' },
}

export const DRAFT_STATUS_LABEL = 'Draft - Complete Flight Plan'

export function statusBadge(status: string) {
  return STATUS_BADGES[status] ?? { label: status, className: 'bg-ink-100 text-ink-700' }
}

/** The line under a project's name on its card. */
export function statusLabel(project: { status: string; isPaid: boolean; quoteAmount: number | null }) {
  switch (project.status) {
    case 'draft':
      return DRAFT_STATUS_LABEL
    case 'pending':
      if (project.isPaid) return 'Paid - Awaiting pilot assignment'
      return project.quoteAmount ? 'Quote ready - Awaiting payment' : 'Pending'
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

/** 'Pay Now' shows for an unpaid pending project with a quote (spec "Client dashboard"). */
export function canPay(project: { status: string; isPaid: boolean; quoteAmount: number | null }) {
  return project.status === 'pending' && !project.isPaid && Boolean(project.quoteAmount && project.quoteAmount > 0)
}

/** Drafts and unpaid pending projects can be (re)planned; paid ones cannot. */
export function canPlan(project: { status: string; isPaid: boolean }) {
  return !project.isPaid && (project.status === 'draft' || project.status === 'pending')
}

/** A paid project can be cancelled (with a refund) until the flight starts: ADR 112. */
export function canCancel(project: { status: string; isPaid: boolean }) {
  return project.isPaid && (project.status === 'pending' || project.status === 'assigned')
}
