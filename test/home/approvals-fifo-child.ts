// Run by approvals.test.ts ("an answer file that is a FIFO"): takes and gives a job's answer while
// that file is a FIFO, in a process of its own so that a hang is a timeout rather than a stuck
// worker. argv: SCV_HOME, the job, the question's id. Prints what each step returned, as JSON.

import { giveAnswer, pendingApproval, takeAnswer } from "../../src/home/approvals.js";

const [home = "", job = "", id = ""] = process.argv.slice(2);
const env = { SCV_HOME: home };
const seen = [
  takeAnswer(job, id, env) ?? null,
  pendingApproval(job, env)?.id ?? null,
  giveAnswer(job, id, "reject", env),
  takeAnswer(job, id, env) ?? null,
];
process.stdout.write(JSON.stringify(seen));
