/** A destructive action of a whole view (deleting a space or a site), set apart at its end. */
export function DangerZone({ title, action, onClick }: { title: string; action: string; onClick: () => void }) {
  return (
    <div className="danger-zone">
      <h2>{title}</h2>
      <button type="button" className="btn danger" onClick={onClick}>
        {action}
      </button>
    </div>
  );
}
