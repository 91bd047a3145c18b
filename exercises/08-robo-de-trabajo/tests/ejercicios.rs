//! Pruebas del capítulo 08. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/08-robo-de-trabajo`) y contra la solución
//! (`solutions/08-robo-de-trabajo`). Un módulo por ejercicio.

/// Ejercicio 1, `desborda`. Lo que se comprueba:
///
/// - mientras cabe (hasta la capacidad exacta, ni una antes), la tarea va al
///   final y no desborda nada;
/// - con la cola llena, desborda la mitad MÁS NUEVA (la de atrás), en su
///   orden, con la tarea nueva al final, y se queda la mitad más antigua;
/// - vale para cualquier capacidad par: la más pequeña (2), una cuya mitad
///   es impar (6) y la de Tokio (256);
/// - después de desbordar, o de sacar tareas, la cola sigue funcionando.
mod desborda {
    use robo_de_trabajo::desborda::ColaLocal;

    fn contenido(cola: &ColaLocal<u32>) -> Vec<u32> {
        cola.tareas().copied().collect()
    }

    /// Una cola de capacidad `capacidad` llena con 0, 1, 2...
    fn llena(capacidad: usize) -> ColaLocal<u32> {
        let mut cola = ColaLocal::new(capacidad);
        for tarea in 0..capacidad as u32 {
            assert!(cola.empuja(tarea).is_empty(), "la tarea {tarea} cabía: no debe desbordar nada");
        }
        cola
    }

    #[test]
    fn mientras_cabe_no_desborda() {
        let cola = llena(4);
        assert_eq!(cola.len(), 4, "cuatro tareas en una cola de capacidad 4 caben todas: len() debe ser 4");
        assert_eq!(contenido(&cola), vec![0, 1, 2, 3], "las tareas van al final, en orden");
    }

    #[test]
    fn llena_manda_la_mitad_de_atras_y_la_nueva() {
        let mut cola = llena(4);
        let fuera = cola.empuja(4);
        assert_eq!(
            fuera,
            vec![2, 3, 4],
            "desborda la mitad MÁS NUEVA (la de atrás), en orden, y al final la tarea que llegaba"
        );
        assert_eq!(contenido(&cola), vec![0, 1], "la mitad más antigua se queda en la cola local");
    }

    #[test]
    fn con_la_capacidad_de_tokio() {
        let mut cola = llena(256);
        let fuera = cola.empuja(256);
        assert_eq!(fuera.len(), 129, "con 256 de capacidad desbordan 128 más la nueva: 129");
        assert_eq!(
            fuera,
            (128..=256).collect::<Vec<u32>>(),
            "con 256 de capacidad desbordan las 128 más nuevas (de la 128 a la 255), en su orden, y al final la que \
             llegaba, la 256"
        );
        assert_eq!(
            contenido(&cola),
            (0..128).collect::<Vec<u32>>(),
            "en la cola local se quedan las 128 más antiguas, de la 0 a la 127, en su orden"
        );
    }

    #[test]
    fn con_capacidades_pequenas_y_mitades_impares() {
        let mut cola = llena(2);
        assert_eq!(cola.empuja(2), vec![1, 2], "capacidad 2: desborda la de atrás (la 1) y la nueva");
        assert_eq!(contenido(&cola), vec![0], "capacidad 2: en la cola local se queda la más antigua, la 0");

        let mut cola = llena(6);
        assert_eq!(cola.empuja(6), vec![3, 4, 5, 6], "capacidad 6: la mitad de atrás son 3 tareas, más la nueva");
        assert_eq!(contenido(&cola), vec![0, 1, 2], "se quedan las 3 más antiguas");
        assert_eq!(cola.capacidad(), 6, "la capacidad no cambia al desbordar");
    }

    #[test]
    fn sacar_y_volver_a_llenar_desborda_justo_al_llenarse() {
        // Tras sacar 2 de una cola de 6, caben exactamente 2 más: la tercera
        // es la que desborda, y se lleva la mitad de atrás de lo que hay.
        let mut cola = llena(6);
        assert_eq!(cola.saca(), Some(0), "el trabajador saca del frente: primero la 0");
        assert_eq!(cola.saca(), Some(1), "y después la 1");
        assert!(cola.empuja(6).is_empty(), "quedaban 2 huecos: la 6 cabe");
        assert!(cola.empuja(7).is_empty(), "y la 7 también: la cola está justo llena");
        assert_eq!(
            cola.len(),
            6,
            "tras sacar 2 y meter otras 2, la cola de capacidad 6 vuelve a estar justo llena: 6 tareas"
        );
        assert_eq!(cola.empuja(8), vec![5, 6, 7, 8], "llena con 2..=7: se van 5, 6 y 7 (las más nuevas) y la 8");
        assert_eq!(
            contenido(&cola),
            vec![2, 3, 4],
            "en la cola local se quedan las 3 más antiguas, 2, 3 y 4, en su orden"
        );
    }

    #[test]
    fn tras_desbordar_sigue_funcionando() {
        let mut cola = llena(4);
        cola.empuja(4);
        assert!(cola.empuja(5).is_empty(), "tras desbordar hay sitio: la 5 cabe");
        assert!(cola.empuja(6).is_empty(), "y la 6 también");
        let fuera = cola.empuja(7);
        assert_eq!(fuera, vec![5, 6, 7], "el segundo desborde vuelve a llevarse la mitad de atrás");
        assert_eq!(cola.saca(), Some(0), "el trabajador saca del frente");
        assert_eq!(cola.saca(), Some(1), "y después la 1: en la cola solo quedaba la mitad más antigua");
        assert_eq!(
            cola.saca(),
            None,
            "tras el segundo desborde solo quedaban la 0 y la 1: la cola está vacía y saca() da None"
        );
    }
}

/// Ejercicio 2, `lote`. Lo que se comprueba:
///
/// - su parte es `en_global / trabajadores + 1`, con división ENTERA (hacia
///   abajo, también con cocientes no exactos: 7 / 2 = 3);
/// - al menos una si hay alguna, aunque no quepa ninguna en la cola local;
/// - nunca más de las que hay;
/// - como mucho los huecos libres y media cola, con la capacidad que te
///   dan (no la de Tokio: 128 solo vale para 256).
mod lote {
    use robo_de_trabajo::lote::cuantas_tomar;

    #[test]
    fn toma_su_parte_mas_una() {
        assert_eq!(cuantas_tomar(10, 2, 256, 256), 6, "10 tareas y 2 trabajadores: 10 / 2 + 1 = 6");
        assert_eq!(cuantas_tomar(9, 4, 256, 256), 3, "9 / 4 + 1 = 3 (división entera)");
    }

    #[test]
    fn al_menos_una_si_hay_alguna() {
        assert_eq!(
            cuantas_tomar(1, 4, 256, 256),
            1,
            "una tarea y cuatro trabajadores: 1 / 4 = 0, pero el trabajador debe llevarse la que hay"
        );
        assert_eq!(
            cuantas_tomar(5, 2, 0, 256),
            1,
            "sin huecos en la cola local toma una igualmente: la ejecuta enseguida, no la guarda"
        );
    }

    #[test]
    fn nunca_mas_de_las_que_hay() {
        assert_eq!(cuantas_tomar(3, 1, 256, 256), 3, "3 / 1 + 1 = 4, pero solo hay 3");
        assert_eq!(cuantas_tomar(0, 2, 256, 256), 0, "con la cola global vacía no toma nada");
    }

    #[test]
    fn la_division_es_entera_y_hacia_abajo() {
        assert_eq!(cuantas_tomar(7, 2, 256, 256), 4, "7 / 2 = 3 (hacia abajo, no 3,5 ni 4) y + 1: 4");
        assert_eq!(cuantas_tomar(11, 4, 256, 256), 3, "11 / 4 = 2 (no 2,75 ni 3) y + 1: 3");
        assert_eq!(cuantas_tomar(5, 3, 256, 256), 2, "5 / 3 = 1 y + 1: 2");
        assert_eq!(cuantas_tomar(3, 4, 256, 256), 1, "3 / 4 = 0 y + 1: 1");
    }

    #[test]
    fn la_media_cola_sale_de_la_capacidad_que_te_dan() {
        assert_eq!(cuantas_tomar(100, 1, 16, 16), 8, "con capacidad 16, media cola son 8 (no 128)");
        assert_eq!(cuantas_tomar(100, 2, 6, 16), 6, "con 6 huecos y media cola de 8, el tope son los 6 huecos");
        assert_eq!(cuantas_tomar(1000, 4, 512, 512), 251, "con capacidad 512 caben 256: 1000 / 4 + 1 = 251");
        assert_eq!(cuantas_tomar(2, 1, 1, 2), 1, "capacidad 2: media cola es 1");
    }

    #[test]
    fn como_mucho_media_cola_y_lo_que_cabe() {
        assert_eq!(cuantas_tomar(1000, 2, 256, 256), 128, "1000 / 2 + 1 = 501, pero el tope es media cola: 128");
        assert_eq!(cuantas_tomar(10, 2, 3, 256), 3, "solo le quedan 3 huecos en la cola local");
    }
}

/// Ejercicio 3, `roba`. Lo que se comprueba:
///
/// - se roba la mitad redondeando hacia arriba (también con una sola
///   tarea), del frente, en orden, detrás de lo que ya tenía la ladrona;
/// - no se roba con la cola propia más que medio llena (con la capacidad
///   que te dan), y sí con justo la mitad;
/// - la búsqueda empieza en `inicio`, da la vuelta, se salta a la ladrona y
///   pasa por TODAS las demás colas: con cuatro o más colas, para cualquier
///   ladrona y cualquier `inicio`, encuentra a la única víctima con tareas
///   y, si hay varias, elige la primera del recorrido.
mod roba {
    use std::collections::VecDeque;

    use robo_de_trabajo::roba::{roba_a_alguien, roba_mitad};

    fn cola(tareas: &[u32]) -> VecDeque<u32> {
        tareas.iter().copied().collect()
    }

    #[test]
    fn roba_la_mitad_redondeando_arriba() {
        let mut victima = cola(&[0, 1, 2, 3, 4]);
        let mut ladrona = VecDeque::new();
        let robadas = roba_mitad(&mut victima, &mut ladrona, 8);
        assert_eq!(robadas, 3, "la mitad de 5, redondeando hacia arriba, es 3");
        assert_eq!(ladrona, cola(&[0, 1, 2]), "roba del frente de la víctima, en orden");
        assert_eq!(victima, cola(&[3, 4]), "a la víctima le quedan las 2 más nuevas, la 3 y la 4");
    }

    #[test]
    fn una_tarea_sola_tambien_se_roba() {
        let mut victima = cola(&[7]);
        let mut ladrona = VecDeque::new();
        assert_eq!(
            roba_mitad(&mut victima, &mut ladrona, 8),
            1,
            "con una sola tarea, la mitad redondeando hacia arriba es 1: si no, nadie le quita nunca la última"
        );
        assert_eq!(ladrona, cola(&[7]), "la ladrona se lleva la única tarea de la víctima, la 7");
        assert!(
            victima.is_empty(),
            "la víctima debe quedarse sin nada (se le robó su única tarea), y le queda {:?}",
            victima
        );
    }

    #[test]
    fn roba_del_frente_y_no_del_final() {
        let mut victima = cola(&[10, 11, 12, 13]);
        let mut ladrona = cola(&[1]);
        assert_eq!(
            roba_mitad(&mut victima, &mut ladrona, 8),
            2,
            "la víctima tiene 4 tareas y la ladrona 1 de 8 (puede robar): roba la mitad, 2"
        );
        assert_eq!(
            ladrona,
            cola(&[1, 10, 11]),
            "las robadas son las del frente (las más antiguas), en su orden, detrás de lo que ya tenía la ladrona"
        );
        assert_eq!(victima, cola(&[12, 13]), "a la víctima le quedan las más nuevas");
    }

    #[test]
    fn no_roba_con_la_cola_mas_que_medio_llena() {
        let mut victima = cola(&[10, 11, 12, 13]);
        let mut ladrona = cola(&[1, 2, 3, 4, 5]);
        assert_eq!(
            roba_mitad(&mut victima, &mut ladrona, 8),
            0,
            "la ladrona tiene 5 de 8 (más de la mitad): no debe robar"
        );
        assert_eq!(victima.len(), 4, "no debe tocar a la víctima");
        let mut ladrona = cola(&[1, 2, 3, 4]);
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 8), 2, "con 4 de 8 (justo la mitad) sí puede robar");
    }

    #[test]
    fn de_una_cola_vacia_no_roba_nada() {
        let mut victima: VecDeque<u32> = VecDeque::new();
        let mut ladrona = VecDeque::new();
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 8), 0, "de una víctima sin tareas no se roba nada: 0");
        assert!(ladrona.is_empty(), "la ladrona no debe recibir nada de una víctima vacía, y tiene {:?}", ladrona);
    }

    #[test]
    fn empieza_a_buscar_por_el_inicio() {
        let mut colas = vec![cola(&[]), cola(&[10]), cola(&[20, 21]), cola(&[30, 31, 32])];
        assert_eq!(
            roba_a_alguien(&mut colas, 0, 2, 8),
            Some((2, 1)),
            "empezando en 2, la primera víctima con tareas es la 2"
        );
        assert_eq!(
            colas[0],
            cola(&[20]),
            "la ladrona 0 se queda con lo robado a la 2: la mitad de [20, 21] redondeando hacia arriba, la del \
             frente, [20]"
        );
        assert_eq!(colas[2], cola(&[21]), "a la víctima 2 le queda su tarea más nueva, [21]");
        assert_eq!(colas[1], cola(&[10]), "no debe tocar a las demás");
        assert_eq!(colas[3], cola(&[30, 31, 32]), "no debe tocar a las demás");
    }

    #[test]
    fn da_la_vuelta_y_se_salta_a_si_misma() {
        let mut colas = vec![cola(&[]), cola(&[10, 11]), cola(&[]), cola(&[])];
        assert_eq!(
            roba_a_alguien(&mut colas, 3, 3, 8),
            Some((1, 1)),
            "la 3 empieza por sí misma (se salta), sigue por la 0 (vacía) y roba a la 1"
        );
        assert_eq!(
            colas[3],
            cola(&[10]),
            "la ladrona 3 se queda con lo robado a la 1: la mitad de [10, 11], la del frente, [10]"
        );
    }

    #[test]
    fn el_limite_de_la_ladrona_usa_la_capacidad_que_te_dan() {
        let mut victima = cola(&[10, 11]);
        let mut ladrona = cola(&[1, 2, 3]);
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 6), 1, "con 3 de 6 (justo la mitad) sí roba");
        let mut ladrona = cola(&[1, 2, 3, 4]);
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 6), 0, "con 4 de 6 (más de la mitad) no roba");
        let mut ladrona: VecDeque<u32> = (0..128).collect();
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 256), 1, "con 128 de 256 sí roba");
        ladrona.push_back(999);
        let mut victima = cola(&[10, 11]);
        assert_eq!(roba_mitad(&mut victima, &mut ladrona, 256), 0, "con 129 de 256 no roba");
    }

    #[test]
    fn recorre_todas_las_colas_desde_cualquier_inicio() {
        // Una sola víctima con tareas: la encuentra sea cual sea la ladrona y
        // el punto de partida. Con 2 o 3 colas muchos recorridos mal hechos
        // aciertan por casualidad; con 4 o 5, no.
        for n in 2..=5 {
            for yo in 0..n {
                for inicio in 0..n {
                    for victima in (0..n).filter(|&v| v != yo) {
                        let mut colas: Vec<VecDeque<u32>> = (0..n).map(|_| VecDeque::new()).collect();
                        colas[victima] = cola(&[7, 8, 9]);
                        assert_eq!(
                            roba_a_alguien(&mut colas, yo, inicio, 8),
                            Some((victima, 2)),
                            "con {n} colas, la ladrona {yo} empezando en {inicio} debe encontrar a la única \
                             víctima con tareas, la {victima}: recorre las {n} colas dando la vuelta"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn con_varias_victimas_elige_la_primera_del_recorrido() {
        for n in 3..=5 {
            for yo in 0..n {
                for inicio in 0..n {
                    let mut colas: Vec<VecDeque<u32>> = (0..n as u32).map(|i| cola(&[i * 10, i * 10 + 1])).collect();
                    colas[yo].clear();
                    let esperada = (0..n).map(|i| (inicio + i) % n).find(|&v| v != yo).unwrap();
                    assert_eq!(
                        roba_a_alguien(&mut colas, yo, inicio, 8).map(|r| r.0),
                        Some(esperada),
                        "con {n} colas llenas, la ladrona {yo} empezando en {inicio} roba a la primera que \
                         encuentra: la {esperada}"
                    );
                }
            }
        }
    }

    #[test]
    fn sin_victimas_no_hay_robo() {
        let mut colas = vec![cola(&[]), cola(&[]), cola(&[])];
        assert_eq!(roba_a_alguien(&mut colas, 1, 0, 8), None, "nadie tiene tareas");
        let mut colas = vec![cola(&[1, 2, 3, 4, 5]), cola(&[6, 7])];
        assert_eq!(roba_a_alguien(&mut colas, 0, 1, 8), None, "la ladrona tiene 5 de 8: no debe robar a nadie");
    }
}

/// Ejercicio 4, `elige`. Lo que se comprueba:
///
/// - el orden: ranura, cola local, cola global;
/// - la ranura tiene el tope que te dan (`max_lifo`, no siempre 3); al
///   llegar a él, su tarea pasa al final de la cola local;
/// - cualquier tarea que no sale de la ranura (de la cola local, de la
///   global en su vuelta o de la global como último recurso) pone a cero la
///   cuenta de seguidas;
/// - cada `intervalo` vueltas, la global va primero, aunque haya ranura y
///   cola local; si está vacía, la vuelta sigue como siempre;
/// - la cuenta de vueltas da la vuelta sin desbordarse.
mod elige {
    use robo_de_trabajo::elige::{Origen, Trabajador};

    /// Un trabajador que mira la global cada `intervalo` vueltas, con tope 3.
    fn trabajador(intervalo: u32) -> Trabajador<u32> {
        Trabajador::new(intervalo, 3)
    }

    #[test]
    fn sin_tareas_no_hay_nada() {
        let mut t = trabajador(10);
        assert_eq!(t.siguiente(), None, "sin tareas en la ranura ni en las colas, no hay nada que dar: None");
        assert_eq!(t.siguiente(), None, "sin tareas sigue sin haber nada que dar: None");
        assert_eq!(t.tick, 2, "cada llamada a siguiente es una vuelta, también las que no encuentran nada");
    }

    #[test]
    fn primero_la_ranura_luego_la_local_luego_la_global() {
        let mut t = trabajador(100);
        t.global.extend([30]);
        t.local.extend([10, 11]);
        t.despierta(20);
        assert_eq!(t.siguiente(), Some((20, Origen::Ranura)), "la ranura va antes que la cola local");
        assert_eq!(t.siguiente(), Some((10, Origen::Local)), "luego el frente de la cola local");
        assert_eq!(t.siguiente(), Some((11, Origen::Local)), "sigue el frente de la cola local: la 11");
        assert_eq!(t.siguiente(), Some((30, Origen::Global)), "con la local vacía, la global");
        assert_eq!(t.siguiente(), None, "ya salieron todas (la ranura y las dos colas están vacías): None");
    }

    #[test]
    fn la_ranura_tiene_tope() {
        // Dos tareas que se despiertan la una a la otra (A = 1, B = 2), como
        // un productor y un consumidor, y otra (99) esperando en la cola local.
        let mut t = trabajador(1000);
        t.local.push_back(99);
        t.despierta(1);
        let mut origenes = Vec::new();
        for _ in 0..8 {
            let (tarea, origen) = t.siguiente().expect("siempre hay alguna tarea lista");
            origenes.push((tarea, origen));
            match tarea {
                1 => t.despierta(2),
                2 => t.despierta(1),
                _ => {}
            }
            if tarea == 99 {
                break;
            }
        }
        assert_eq!(
            origenes,
            vec![(1, Origen::Ranura), (2, Origen::Ranura), (1, Origen::Ranura), (99, Origen::Local),],
            "tras 3 tareas seguidas de la ranura, la de la ranura va al final de la cola local \
             y la 99, que esperaba, pasa primero"
        );
        assert_eq!(t.local.front(), Some(&2), "la tarea que estaba en la ranura debe quedar en la cola local");
        assert_eq!(
            t.siguiente(),
            Some((2, Origen::Local)),
            "la 2, que pasó de la ranura a la cola local al llegar al tope, sale ahora de la cola local"
        );
        t.despierta(1);
        assert_eq!(
            t.siguiente(),
            Some((1, Origen::Ranura)),
            "tras una tarea de la cola local, la ranura vuelve a valer"
        );
    }

    #[test]
    fn el_tope_de_la_ranura_es_el_que_te_dan() {
        for max_lifo in [1u32, 2, 5] {
            let mut t: Trabajador<u32> = Trabajador::new(1000, max_lifo);
            t.local.push_back(99);
            t.despierta(1);
            let mut de_la_ranura = 0;
            loop {
                let (tarea, origen) = t.siguiente().expect("siempre hay alguna tarea lista");
                if tarea == 99 {
                    break;
                }
                assert_eq!(
                    origen,
                    Origen::Ranura,
                    "con max_lifo = {max_lifo}, las tareas 1 y 2 se despiertan la una a la otra: hasta el tope salen \
                     de la ranura, y al llegar a él pasa primero la 99, que esperaba en la cola local. Salió la {tarea} \
                     de {origen:?} tras {de_la_ranura} seguidas de la ranura"
                );
                de_la_ranura += 1;
                t.despierta(if tarea == 1 { 2 } else { 1 });
                assert!(de_la_ranura <= 10, "la ranura no deja pasar a la 99: ¿usas self.max_lifo?");
            }
            assert_eq!(de_la_ranura, max_lifo, "con max_lifo = {max_lifo}, salen {max_lifo} seguidas de la ranura");
        }
    }

    #[test]
    fn la_cuenta_de_seguidas_vuelve_a_cero_con_cualquier_tarea_que_no_sea_de_la_ranura() {
        // De la global como último recurso (sin nada local).
        let mut t: Trabajador<u32> = Trabajador::new(1000, 1);
        t.despierta(1);
        assert_eq!(t.siguiente(), Some((1, Origen::Ranura)), "la tarea recién despertada sale de la ranura");
        t.global.push_back(30);
        assert_eq!(
            t.siguiente(),
            Some((30, Origen::Global)),
            "sin nada en la ranura ni en la cola local, la global como último recurso"
        );
        t.despierta(2);
        assert_eq!(
            t.siguiente(),
            Some((2, Origen::Ranura)),
            "una tarea de la cola global también pone a cero la cuenta de la ranura"
        );

        // De la global en su vuelta (la vuelta 3).
        let mut t: Trabajador<u32> = Trabajador::new(3, 2);
        t.global.push_back(30);
        t.despierta(1);
        assert_eq!(
            t.siguiente(),
            Some((1, Origen::Ranura)),
            "la tarea recién despertada sale de la ranura: la vuelta 1 no es de la global (intervalo 3)"
        );
        t.despierta(2);
        assert_eq!(
            t.siguiente(),
            Some((2, Origen::Ranura)),
            "la vuelta 2 tampoco es de la global, y con tope 2 la ranura da una segunda seguida"
        );
        t.despierta(3);
        assert_eq!(t.siguiente(), Some((30, Origen::Global)), "la vuelta 3 es de la cola global");
        assert_eq!(
            t.siguiente(),
            Some((3, Origen::Ranura)),
            "tras la tarea de la global, la cuenta vuelve a 0 y la ranura vuelve a valer"
        );
    }

    #[test]
    fn la_cuenta_de_vueltas_no_se_desborda() {
        let mut t = trabajador(5);
        t.local.push_back(1);
        t.global.push_back(100);
        t.tick = u32::MAX;
        assert_eq!(
            t.siguiente(),
            Some((100, Origen::Global)),
            "tras u32::MAX la cuenta da la vuelta a 0 (wrapping_add), y 0 es múltiplo de cualquier intervalo"
        );
        assert_eq!(
            t.tick, 0,
            "tras u32::MAX, la cuenta de vueltas da la vuelta a 0 (wrapping_add) en vez de desbordarse"
        );
    }

    #[test]
    fn la_global_no_muere_de_hambre() {
        // La cola local nunca se vacía: cada tarea, al terminar su sondeo,
        // vuelve a la cola (como una tarea que cede). Aun así, la tarea de la
        // cola global debe correr en la vuelta `intervalo`.
        let mut t = trabajador(7);
        t.local.extend([1, 2, 3]);
        t.global.push_back(100);
        for vuelta in 1..=7 {
            let (tarea, origen) = t.siguiente().expect("siempre hay tareas");
            if tarea == 100 {
                assert_eq!(
                    origen,
                    Origen::Global,
                    "la tarea 100 estaba en la cola global: debe salir con Origen::Global"
                );
                assert_eq!(vuelta, 7, "la global se mira en la vuelta 7 (tick % intervalo == 0), ni antes ni después");
                return;
            }
            t.local.push_back(tarea);
        }
        panic!("la tarea de la cola global no corrió en 7 vueltas: mira la global cuando tick % intervalo == 0");
    }

    #[test]
    fn la_global_se_mira_en_cada_intervalo() {
        let mut t = trabajador(5);
        t.local.extend([1, 2]);
        t.global.extend([100, 101]);
        let mut vueltas_globales = Vec::new();
        for vuelta in 1..=10 {
            let (tarea, origen) = t.siguiente().expect("siempre hay tareas");
            if origen == Origen::Global {
                vueltas_globales.push(vuelta);
            } else {
                t.local.push_back(tarea);
            }
        }
        assert_eq!(vueltas_globales, vec![5, 10], "la cola global se mira en las vueltas 5 y 10");
    }

    #[test]
    fn en_su_vuelta_la_global_va_antes_que_la_ranura() {
        let mut t = trabajador(2);
        t.local.extend([1, 2]);
        t.global.push_back(100);
        assert_eq!(
            t.siguiente(),
            Some((1, Origen::Local)),
            "la vuelta 1 es normal (intervalo 2): con la ranura vacía, el frente de la cola local"
        );
        t.despierta(50);
        assert_eq!(
            t.siguiente(),
            Some((100, Origen::Global)),
            "en la vuelta 2 toca la global, antes incluso que la ranura"
        );
        assert_eq!(t.siguiente(), Some((50, Origen::Ranura)), "la ranura sigue ahí, y va después");
    }

    #[test]
    fn si_en_su_vuelta_la_global_esta_vacia_sigue_lo_normal() {
        let mut t = trabajador(1);
        t.local.extend([1, 2]);
        t.despierta(50);
        assert_eq!(t.siguiente(), Some((50, Origen::Ranura)), "sin nada en la global, la ranura");
        assert_eq!(
            t.siguiente(),
            Some((1, Origen::Local)),
            "con la cola global vacía, la vuelta sigue el orden normal: tras la ranura, el frente de la cola local"
        );
    }
}
