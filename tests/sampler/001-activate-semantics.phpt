--TEST--
sampler: with stat.auto=0, activate()/active()/deactivate() report what they did and return false when there is nothing to do
--INI--
stat.stream=0
stat.control=0
stat.auto=0
--FILE--
<?php
use function stat\sampler\{activate, active, deactivate};

$samplers = fn() => stat\counters()['samplers_active'];
echo "active: "; var_dump(active());
echo "samplers_active: ", $samplers(), "\n";
echo "activate: "; var_dump(activate());
echo "active: "; var_dump(active());
echo "samplers_active: ", $samplers(), "\n";
echo "activate again: "; var_dump(activate());
echo "samplers_active: ", $samplers(), "\n";
echo "deactivate: "; var_dump(deactivate());
echo "active: "; var_dump(active());
echo "samplers_active: ", $samplers(), "\n";
echo "deactivate again: "; var_dump(deactivate());
echo "activate after deactivate: "; var_dump(activate());
echo "active: "; var_dump(active());
?>
--EXPECT--
active: bool(false)
samplers_active: 0
activate: bool(true)
active: bool(true)
samplers_active: 1
activate again: bool(false)
samplers_active: 1
deactivate: bool(true)
active: bool(false)
samplers_active: 0
deactivate again: bool(false)
activate after deactivate: bool(true)
active: bool(true)
