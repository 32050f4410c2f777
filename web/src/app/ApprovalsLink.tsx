/**
 * The approvals inbox link, with how many wait on the signed-in person. Its own chunk, loaded
 * once someone is signed in: the workflow API it counts with stays out of the first visit.
 */
import { Link } from "@tanstack/react-router";
import { usePendingApprovalCount } from "../api/workflows";

export function ApprovalsLink() {
  const count = usePendingApprovalCount(true).data ?? 0;
  return (
    <Link to="/approvals" activeProps={{ "aria-current": "page" }}>
      Approvals{count ? ` (${count})` : ""}
    </Link>
  );
}
