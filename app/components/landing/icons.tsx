/**
 * Line icons for the landing page (24×24, stroke = currentColor), drawn from one SVG
 * sprite (`icons.svg`, a static asset) so the paths are not shipped as JavaScript.
 */
import sprite from './icons.svg'

export type IconName =
  | 'arrow-down'
  | 'arrow-right'
  | 'calculator'
  | 'calendar'
  | 'card'
  | 'check'
  | 'download'
  | 'drone'
  | 'handshake'
  | 'mail'
  | 'map'
  | 'phone'
  | 'pin'
  | 'polygon'
  | 'report'
  | 'shield'
  | 'tag'
  | 'target'

export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <use href={`${sprite}#${name}`} />
    </svg>
  )
}

type P = { className?: string }

export const ArrowDownIcon = (p: P) => <Icon name="arrow-down" {...p} />
export const ArrowRightIcon = (p: P) => <Icon name="arrow-right" {...p} />
export const CalculatorIcon = (p: P) => <Icon name="calculator" {...p} />
export const CalendarIcon = (p: P) => <Icon name="calendar" {...p} />
export const CardIcon = (p: P) => <Icon name="card" {...p} />
export const CheckIcon = (p: P) => <Icon name="check" {...p} />
export const DownloadIcon = (p: P) => <Icon name="download" {...p} />
export const DroneIcon = (p: P) => <Icon name="drone" {...p} />
export const HandshakeIcon = (p: P) => <Icon name="handshake" {...p} />
export const MailIcon = (p: P) => <Icon name="mail" {...p} />
export const MapIcon = (p: P) => <Icon name="map" {...p} />
export const PhoneIcon = (p: P) => <Icon name="phone" {...p} />
export const PinIcon = (p: P) => <Icon name="pin" {...p} />
export const PolygonIcon = (p: P) => <Icon name="polygon" {...p} />
export const ReportIcon = (p: P) => <Icon name="report" {...p} />
export const ShieldIcon = (p: P) => <Icon name="shield" {...p} />
export const TagIcon = (p: P) => <Icon name="tag" {...p} />
export const TargetIcon = (p: P) => <Icon name="target" {...p} />
