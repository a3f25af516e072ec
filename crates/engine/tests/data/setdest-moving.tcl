#
# nodes: 3, pause: 1.00, max speed: 25.00, max x: 500.00, max y: 500.00
# A hand-written ns-2 movement file in CMU setdest's format: initial positions, $god_ lines
# (ignored), and setdest commands issued while the node is still moving towards an earlier
# destination (node 0 at 5.5 s, node 1 at 15 s).
#
$node_(0) set X_ 10.000000000000
$node_(0) set Y_ 20.000000000000
$node_(0) set Z_ 0.000000000000
$node_(1) set X_ 300.500000000000
$node_(1) set Y_ 150.250000000000
$node_(1) set Z_ 0.000000000000
$node_(2) set X_ 0.000000000000
$node_(2) set Y_ 0.000000000000
$node_(2) set Z_ 0.000000000000
$god_ set-dist 0 1 1
$god_ set-dist 0 2 1
$god_ set-dist 1 2 16777215
$ns_ at 1.000000000000 "$node_(0) setdest 210.000000000000 20.000000000000 10.000000000000"
$ns_ at 2.250000000000 "$node_(1) setdest 100.000000000000 150.250000000000 3.370000000000"
$ns_ at 3.000000000000 "$node_(2) setdest 50.000000000000 50.000000000000 1.000000000000"
$ns_ at 5.500000000000 "$node_(0) setdest 110.000000000000 220.000000000000 7.500000000000"
#
# Setting the distance matrix at run time, as setdest does when links change.
$ns_ at 12.000000000000 "$god_ set-dist 0 1 2"
$ns_ at 15.000000000000 "$node_(1) setdest 400.000000000000 400.000000000000 25.000000000000"
$ns_ at 40.000000000000 "$node_(0) setdest 20.500000000000 30.000000000000 12.000000000000"
$ns_ at 52.000000000000 "$node_(2) setdest 0.000000000000 90.000000000000 4.000000000000"
$ns_ at 54.000000000000 "$node_(2) setdest 60.000000000000 60.000000000000 2.000000000000"
