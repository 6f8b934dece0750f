<?php

/**
 * @generate-class-entries
 * Regenerate stat_arginfo.h with: php /usr/lib/php/20220829/build/gen_stub.php stat.stub.php
 */

namespace stat {
    /** The process id as it appears in samples. */
    function pid(): int {}

    /** Seconds since stat started (the clock of samples' "elapsed"). */
    function elapsed(): float {}

    /** The live settings (as the control socket left them) and the socket addresses. */
    function settings(): array {}

    /** stat's counters, shared by every process: samples written, failed, lost, … */
    function counters(): array {}
}

namespace stat\sampler {
    /** Start sampling this request; false if it already is, or stat.samplers refuses. */
    function activate(): bool {}

    /** Whether this request is being sampled. */
    function active(): bool {}

    /** Stop sampling this request; false if it was not. */
    function deactivate(): bool {}
}
