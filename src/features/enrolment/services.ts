// The enrolment reads other features use (the booking funnel, the staff home's queue), built
// on the connection they hand in: their staff pages read through `app.readDb`.
import type { Db } from '../../db/index';
import { createEnrolmentRepository } from './enrolment.repository';
import { createEnrolmentReadsService } from './reads.service';

export function enrolmentReads(readDb: Db) {
  return createEnrolmentReadsService(createEnrolmentRepository(readDb));
}
