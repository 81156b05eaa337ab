/**
 * The mutation test set's clock: the transport's waits take no real time (the clock moves on
 * instead), as in the model, so a lost answer's backoff costs nothing for each mutant.
 */
import * as clock from '../../nodes/ContactData/shared/client/clock';

clock.timeScale.waits = 0;
